import { describe, expect, it } from 'vitest';
import { answerInContext, ndcgAt, normalizeAnswer, percentile, recallAt } from './metrics';

describe('retrieval metrics', () => {
  it('nDCG@10 is 1 for a perfect ranking and discounts later hits by log2(rank + 1)', () => {
    expect(ndcgAt(['a', 'b', 'x'], new Set(['a', 'b']))).toBe(1);
    expect(ndcgAt(['x', 'a'], new Set(['a']))).toBeCloseTo(1 / Math.log2(3), 12);
    // Two gold, one found at rank 3: DCG 1/log2(4) over the ideal 1 + 1/log2(3).
    expect(ndcgAt(['x', 'y', 'b'], new Set(['a', 'b']))).toBeCloseTo(0.5 / (1 + 1 / Math.log2(3)), 12);
    expect(ndcgAt(['x', 'y'], new Set(['a']))).toBe(0);
  });

  it('nDCG ignores hits past k and counts a repeated document once', () => {
    const ranked = [...'abcdefghij'.split(''), 'gold'];
    expect(ndcgAt(ranked, new Set(['gold']))).toBe(0);
    expect(ndcgAt(['gold', 'gold'], new Set(['gold', 'other']))).toBeCloseTo(1 / (1 + 1 / Math.log2(3)), 12);
  });

  it('Recall@k is the share of gold found in the top k', () => {
    const gold = new Set(['a', 'b', 'c', 'd']);
    expect(recallAt(['a', 'x', 'b', 'c'], gold, 2)).toBe(0.25);
    expect(recallAt(['a', 'x', 'b', 'c'], gold, 5)).toBe(0.75);
    expect(recallAt([], gold, 100)).toBe(0);
  });

  it('percentile is nearest-rank', () => {
    const sorted = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10];
    expect([percentile(sorted, 50), percentile(sorted, 95), percentile(sorted, 100)]).toEqual([5, 10, 10]);
  });
});

describe('answer in context', () => {
  it('normalises like SQuAD: lower case, punctuation and articles out, spaces folded', () => {
    expect(normalizeAnswer('The  Eiffel-Tower, Paris!')).toBe('eiffel tower paris');
    expect(normalizeAnswer('An apple a day')).toBe('apple day');
  });

  it('matches an answer or alias on word boundaries only', () => {
    expect(answerInContext(['G. Stanley Hall', 'Stanley Hall'], 'Its first president was G Stanley Hall.')).toBe(true);
    expect(answerInContext(['35'], 'Founded in 1935 by two brothers.')).toBe(false);
    expect(answerInContext(['yes'], 'Yesterday it rained.')).toBe(false);
    expect(answerInContext(['a spirit'], 'Lilu is a kind of SPIRIT in Akkadian myth.')).toBe(true);
    expect(answerInContext(['the'], 'the the the')).toBe(false);
  });
});
