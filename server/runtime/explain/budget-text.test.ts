import { describe, expect, it } from 'vitest';
import { budgetFigures, budgetLimitsShown, budgetUsedText } from './budget-text';

const spent = { costUsd: 0.00012, tokens: 320, elapsedSeconds: 0.41 };

describe('the run budget beside an EXPLAIN ANALYZE node', () => {
  it('sets each figure against the limit the request set, and shows the others bare', () => {
    expect(budgetUsedText(spent, { max_cost_usd: 0.0005, max_latency_seconds: 5 })).toBe('cost $0.000120 of $0.000500 (24%) · tokens 320 · time 0.410 s of 5.000 s (8%)');
    expect(budgetUsedText(spent)).toBe('cost $0.000120 · tokens 320 · time 0.410 s');
  });

  it('gives the share used, over 1 past a limit and "over" against a zero limit', () => {
    const figures = budgetFigures({ ...spent, tokens: 1_200 }, { max_tokens: 1_000, max_cost_usd: 0 });
    expect(figures.map((entry) => [entry.metric, entry.share])).toEqual([
      ['cost', Number.POSITIVE_INFINITY],
      ['tokens', 1.2],
      ['time', undefined],
    ]);
    expect(figures[0].text).toBe('cost $0.000120 of $0.000000 (over)');
    expect(figures[1].text).toBe('tokens 1200 of 1000 (120%)');
  });

  it('takes only the run-time limits from the constraints, none when there are none', () => {
    expect(budgetLimitsShown({ max_tokens: 900, require_citations: true })).toEqual({ max_tokens: 900 });
    expect(budgetLimitsShown({ require_verification: true })).toBeUndefined();
  });
});
