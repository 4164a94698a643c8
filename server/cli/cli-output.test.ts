import { describe, expect, it } from 'vitest';
import type { FieldStatistics } from '../runtime/costmodel/cost-estimator';
import type { RunResult } from '../runtime/explain/explain-types';
import { MAX_SKIPPED_LINES, renderIngest, renderRun, renderSkipped, renderStatisticsRow } from './cli-output';

const row = (count: number, intervalCoverage: number): FieldStatistics => ({
  estimator: 'heuristic-v1',
  field: 'tokens',
  intentClass: 'all',
  count,
  meanAbsoluteError: 120,
  intervalCoverage,
  intervalWidth: 400,
  p90Interval: [-50, 300],
  lastUpdated: '2026-01-01T00:00:00.000Z',
});

describe('CLI output', () => {
  it('lists skipped files one per line with their reason, relative to the working directory when inside it, capped', () => {
    const skipped = [
      { path: '/work/docs/diagram.md', reason: 'binary content (NUL byte at offset 8)' },
      { path: '/elsewhere/tool', reason: 'executable file, not a document (unsupported file type "tool")' },
    ];
    expect(renderSkipped(skipped, '/work')).toEqual([
      'warning: skipped docs/diagram.md: binary content (NUL byte at offset 8)',
      'warning: skipped /elsewhere/tool: executable file, not a document (unsupported file type "tool")',
    ]);
    const many = Array.from({ length: MAX_SKIPPED_LINES + 5 }, (_, index) => ({ path: `/work/f${index}.png`, reason: 'unsupported file type ".png"' }));
    const lines = renderSkipped(many, '/work');
    expect(lines).toHaveLength(MAX_SKIPPED_LINES + 1);
    expect(lines.at(-1)).toBe('warning: … and 5 more skipped (--json lists all)');
    expect(renderIngest({ sources: [], skipped })).toBe('nothing ingested (2 skipped, see below)');
  });

  it('says "too few samples" for coverage below the conformal threshold instead of a figure', () => {
    expect(renderStatisticsRow(row(2, 0))).toContain('too few samples (n=2, needs 20)');
    expect(renderStatisticsRow(row(2, 0))).not.toContain('coverage=');
    expect(renderStatisticsRow(row(40, 0.875))).toContain('coverage=0.88');
  });

  it('says an unverified answer is not verified before the answer, and gives the reasons', () => {
    const run = (status: RunResult['status']) =>
      renderRun({
        runId: 'r1', status, answer: 'The pods ran out of memory [1].', citations: [], caveats: status === 'unverified' ? ['Not a verified answer: verification failed on all 2 attempts — llm_judge: unsupported'] : [],
        verification: { method: 'llm_judge', passed: status !== 'unverified', confidence: 0.5, checks: [] },
        explain: { goal: 'Why?', planHash: 'abc' } as RunResult['explain'],
      });
    const lines = run('unverified').split('\n');
    expect(lines.slice(0, 2)).toEqual(['Run r1: unverified', 'NOT A VERIFIED ANSWER: its required verification failed on every attempt (reasons below).']);
    expect(lines).toContain('Caveat: Not a verified answer: verification failed on all 2 attempts — llm_judge: unsupported');
    expect(run('completed')).not.toContain('NOT A VERIFIED ANSWER');
  });
});
