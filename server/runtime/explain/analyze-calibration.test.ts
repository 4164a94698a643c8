import { describe, expect, it } from 'vitest';
import { CONFORMAL_MIN_SAMPLES } from '../costmodel/units';
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
  costUsd: { count: 2, meanAbsoluteError: 0, intervalCoverage: 0 },
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
    expect(formatCalibration(result.latencySeconds, String)).toBe('no samples');
  });

  it('prints the coverage only from CONFORMAL_MIN_SAMPLES runs on; below that, how few there are', () => {
    const field = (count: number, intervalCoverage: number) => ({ estimator: 'learned-v2', intentClass: 'incident' as const, count, meanAbsoluteError: 310.4, intervalCoverage, intervalWidth: 1 });
    const round = (value: number) => value.toFixed(0);
    const result = attachCalibration(explain, lookup).analyze!.calibration!;
    expect(formatCalibration(result.costUsd, String)).toBe('too few samples (n = 2) MAE 0');
    expect(formatCalibration(result.tokens, round)).toBe('too few samples (n = 12) MAE 310');
    expect(formatCalibration(field(CONFORMAL_MIN_SAMPLES - 1, 0), round)).toBe(`too few samples (n = ${CONFORMAL_MIN_SAMPLES - 1}) MAE 310`);
    expect(formatCalibration(field(CONFORMAL_MIN_SAMPLES, 0.85), round)).toBe(`cov 0.85 MAE 310 n=${CONFORMAL_MIN_SAMPLES}`);
    expect(formatCalibration(field(120, 0.875), round)).toBe('cov 0.88 MAE 310 n=120');
  });
});
