import { describe, expect, it } from 'vitest';
import type { Hit } from '../types';
import { feedbackTerms } from './query-feedback';

const hit = (text: string, score: number): Hit => ({ chunkId: text.slice(0, 8), sourceName: 's', sourceKind: 'logs', sourceVersionId: 'v', title: '', text, score, rank: 1, method: 'bm25', tokens: 10 });

describe('feedbackTerms (RM3-style expansion)', () => {
  it('keeps terms shared by the top documents, weighted by score, minus the goal and noise', () => {
    const hits = [
      hit('2025-06-03T09:31:09Z pod checkout-api OOMKilled: memory limit 256Mi exceeded', 10),
      hit('Warning OOMKilled checkout-api container memory limit reached', 8),
      hit('readiness probe failed for checkout-api', 2),
    ];
    const terms = feedbackTerms('why did checkout-api fail', hits, 3, 4);
    expect(terms).toEqual(expect.arrayContaining(['oomkilled', 'memory', 'limit']));
    expect(terms).not.toContain('checkout-api');
    expect(terms.some((term) => /^\d/.test(term))).toBe(false);
  });

  it('returns nothing without documents', () => {
    expect(feedbackTerms('x', [], 5, 5)).toEqual([]);
  });
});
