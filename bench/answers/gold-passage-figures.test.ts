import { describe, expect, it } from 'vitest';
import { goldPosition, scoreGoldCitations } from './gold-passage-figures';

describe('scoreGoldCitations', () => {
  it('scores distinct cited passages against the gold set', () => {
    expect(scoreGoldCitations(['a', 'a', 'x', 'b'], new Set(['a', 'b', 'c', 'd']))).toEqual({ precision: 2 / 3, recall: 0.5 });
    expect(scoreGoldCitations([], new Set(['a']))).toEqual({ recall: 0 });
  });
});

describe('goldPosition', () => {
  const item = (documentId: string, text: string) => ({ documentId, text });
  const gold = new Set(['g1', 'g2']);
  it('finds the gold passage that holds the answer, not a bridge passage, and buckets it by thirds', () => {
    const items = [item('g1', 'The bridge entity.'), item('x', 'Paris is noise.'), item('x2', 'noise'), item('x3', 'noise'), item('g2', 'It is in Paris.'), item('x4', 'noise'), item('x5', 'noise')];
    expect(goldPosition(items, gold, ['Paris'])).toEqual({ bucket: 'middle', index: 4 });
    expect(goldPosition(items.slice(4), gold, ['Paris'])).toEqual({ bucket: 'start', index: 0 });
    expect(goldPosition(items.slice(0, 5), gold, ['Paris'])).toEqual({ bucket: 'end', index: 4 });
  });
  it('says when no gold passage holding the answer is in the context', () => {
    expect(goldPosition([item('x', 'Paris')], gold, ['Paris'])).toEqual({ bucket: 'not in context' });
    expect(goldPosition([item('g1', 'Paris')], gold, ['Paris'])).toEqual({ bucket: 'only item', index: 0 });
  });
});
