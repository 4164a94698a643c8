import { describe, expect, it } from 'vitest';
import type { EstimatedField } from '../types';
import { attachCalibration, formatCalibration } from './analyze-calibration';
import type { AnalyzeSection, ExplainResult } from './explain-types';

const zero = { tokens: 0, costUsd: 0, latencySeconds: 0 };
const analyze: AnalyzeSection = {
  runId: 'r1',
  status: 'completed',
  nodes: [
    { nodeId: 'retrieve', kind: 'retrieve', status: 'done', attempts: 1, estimate: zero, actual: zero },
    { nodeId: 'verify', kind: 'verify', status: 'skipped', attempts: 0, estimate: zero },
  ],
  totals: { estimate: zero, actual: zero, misestimate: undefined },
};
const explain = { intent: { primary: 'incident' }, analyze } as unknown as ExplainResult;
const rows: Record<string, { count: number; meanAbsoluteError: number; intervalCoverage: number }> = {
  tokens: { count: 12, meanAbsoluteError: 310.4, intervalCoverage: 0.75 },
  costUsd: { count: 12, meanAbsoluteError: 0, intervalCoverage: 1 },
  latencySeconds: { count: 0, meanAbsoluteError: 0, intervalCoverage: 0 },
};
const lookup = (field: EstimatedField) => ({ estimator: 'heuristic-v1', intervalWidth: 1, ...rows[field] });

describe('attachCalibration', () => {
  it('adds the field × intent calibration to the ANALYZE section and every node that ran, not to skipped ones', () => {
    const result = attachCalibration(explain, lookup);
    expect(result.analyze!.calibration!.tokens).toEqual({ estimator: 'heuristic-v1', intentClass: 'incident', count: 12, meanAbsoluteError: 310.4, intervalCoverage: 0.75, intervalWidth: 1 });
    expect(result.analyze!.nodes[0].calibration).toBe(result.analyze!.calibration);
    expect(result.analyze!.nodes[1].calibration).toBeUndefined();
    expect(explain.analyze!.calibration).toBeUndefined();
  });

  it('leaves a plain EXPLAIN alone and prints "no samples" rather than a coverage of 0', () => {
    const plain = { intent: { primary: 'incident' } } as unknown as ExplainResult;
    expect(attachCalibration(plain, lookup)).toBe(plain);
    const result = attachCalibration(explain, lookup).analyze!.calibration!;
    expect(formatCalibration(result.tokens, (value) => value.toFixed(0))).toBe('cov 0.75 MAE 310 n=12');
    expect(formatCalibration(result.latencySeconds, String)).toBe('no samples');
  });
});
