import { describe, expect, it } from 'vitest';
import { budgetSpend, formatShare, sourceColour } from './token-budget-figures';

describe('budgetSpend', () => {
  it('sums the spend by source and groups dropped chunks by why', () => {
    const spend = budgetSpend({
      budget: 1000,
      finalK: 4,
      estimatedContextTokens: 900,
      bySource: [
        { source: 'logs', tokens: 300, items: 2 },
        { source: 'docs', tokens: 500, items: 3 },
      ],
      dropped: [
        { chunkId: 'a', source: 'logs', tokens: 40, why: 'over budget' },
        { chunkId: 'b', source: 'docs', tokens: 60, why: 'below top k' },
        { chunkId: 'c', source: 'docs', tokens: 10, why: 'over budget' },
      ],
    });
    expect(spend.used).toBe(800);
    expect(spend.whole).toBe(1000);
    expect(spend.droppedWhy).toEqual([
      { why: 'over budget', count: 2, tokens: 50 },
      { why: 'below top k', count: 1, tokens: 60 },
    ]);
  });

  it('widens the bar to the spend when it ran over, and is empty before a run', () => {
    expect(budgetSpend({ budget: 100, finalK: 1, estimatedContextTokens: 0, bySource: [{ source: 'logs', tokens: 150, items: 1 }] }).whole).toBe(150);
    const before = budgetSpend({ budget: 0, finalK: 0, estimatedContextTokens: 0 });
    expect(before).toMatchObject({ bySource: [], used: 0, whole: 1, dropped: [], droppedWhy: [] });
  });
});

describe('formatShare', () => {
  it('rounds to a whole percent and has a dash for nothing', () => {
    expect(formatShare(1, 3)).toBe('33%');
    expect(formatShare(5, 0)).toBe('—');
  });
});

describe('sourceColour', () => {
  it('cycles through the hues so the bar and the rows agree', () => {
    expect(sourceColour(0)).toBe(sourceColour(7));
    expect(sourceColour(0)).not.toBe(sourceColour(1));
  });
});
