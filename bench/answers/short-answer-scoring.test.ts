import { describe, expect, it } from 'vitest';
import { scoreShortAnswer } from './short-answer-scoring';

describe('short-answer scoring (SQuAD EM / F1)', () => {
  it('matches exactly after normalisation, markers dropped, best alias kept', () => {
    expect(scoreShortAnswer('The Anglican Communion [2].', ['the Anglican Communion'])).toEqual({ exactMatch: 1, f1: 1, goldInAnswer: 1 });
    expect(scoreShortAnswer('Stanley Hall [1]', ['G. Stanley Hall', 'Stanley Hall']).exactMatch).toBe(1);
  });

  it('gives partial F1 to a sentence holding the answer, and no credit to a number inside another', () => {
    const score = scoreShortAnswer('Its first president was G. Stanley Hall [3].', ['G. Stanley Hall']);
    expect(score.exactMatch).toBe(0);
    expect(score.f1).toBeCloseTo((2 * (3 / 7) * 1) / (3 / 7 + 1), 5);
    expect(score.goldInAnswer).toBe(1);
    expect(scoreShortAnswer('It opened in 1935 [1].', ['35'])).toEqual({ exactMatch: 0, f1: 0, goldInAnswer: 0 });
    // The question quoted back in the lead-in is no credit: "Hall" appears in it, not in the answer.
    expect(scoreShortAnswer('Evidence on "Who founded Hall Institute" from 2 context items:\n- It was founded in 1901 [1].', ['Hall']).goldInAnswer).toBe(0);
  });
});
