import { describe, expect, it } from 'vitest';
import type { RunResult } from '@/server/runtime/explain/explain-types';
import { diffPlans } from './plan-diff';

const at = (value: number) => ({ value, low: value, high: value });
function run(costUsd: number, budget: number, description: string, actualCost?: number): RunResult {
  return {
    runId: description,
    status: 'completed',
    citations: [],
    caveats: [],
    explain: {
      goal: 'why',
      planHash: description.padEnd(32, '0'),
      constraints: { max_tokens: budget },
      enumerated: 10,
      chosen: { description },
      graph: { version: 1, nodes: [] },
      estimates: { costUsd: at(costUsd), latencySeconds: at(2), tokens: at(1000), accuracy: at(0.8) },
      tokenBudget: { budget, finalK: 8, estimatedContextTokens: 900 },
      rejectedSources: [],
      analyze: actualCost === undefined ? undefined : { totals: { actual: { costUsd: actualCost, latencySeconds: 1, tokens: 900 } } },
    },
  } as unknown as RunResult;
}

describe('plan diff', () => {
  const rows = new Map(diffPlans(run(0.01, 4000, 'bm25 → cheap', 0.02), run(0.005, 1000, 'dense → local')).map((row) => [row.label, row]));

  it('reports ratios for quantities and same/differs for choices', () => {
    expect(rows.get('Estimated cost')).toMatchObject({ a: '$0.010', b: '$0.0050', change: '−50%', changed: true });
    expect(rows.get('Context budget')).toMatchObject({ change: '−75%', changed: true });
    expect(rows.get('Chosen plan')).toMatchObject({ change: 'differs', changed: true });
    expect(rows.get('Goal')).toMatchObject({ change: 'same', changed: false });
    expect(rows.get('Constraints')!.a).toBe('max_tokens=4000');
  });

  it('shows a dash where one side has not run', () => {
    expect(rows.get('Actual cost')).toMatchObject({ a: '$0.020', b: '—', change: '—', changed: false });
  });

  it('handles growth and a zero baseline', () => {
    const grown = new Map(diffPlans(run(0, 1000, 'a'), run(0.03, 3000, 'a')).map((row) => [row.label, row]));
    expect(grown.get('Context budget')!.change).toBe('×3.00');
    expect(grown.get('Estimated cost')).toMatchObject({ change: 'from 0', changed: true });
  });
});
