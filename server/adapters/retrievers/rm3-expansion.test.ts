import { describe, expect, it } from 'vitest';
import { relevanceModel, repeatedText, words } from './rm3-expansion';

const OPTIONS = { documents: 2, terms: 3, originalWeight: 0.6, maxRepeats: 6 };

describe('RM3 expansion', () => {
  it('tokenises to lower-case words without stopwords or single characters', () => {
    expect(words('Who directed The Matrix (1999) in L.A.?')).toEqual(['directed', 'matrix', '1999']);
  });

  it('interpolates the query model with the feedback model: λ for the query, 1 − λ for expansion terms', () => {
    const feedback = [
      { text: 'Wachowskis directed Matrix Wachowskis', score: 3 },
      { text: 'Matrix sequel Reloaded', score: 1 },
      { text: 'ignored third document', score: 9 },
    ];
    const model = relevanceModel('directed Matrix', feedback, OPTIONS);
    const weight = new Map(model.map((entry) => [entry.term, entry.weight]));
    // Query terms: 0.6 × 1/2 each. Feedback: P(D1|Q) = 3/4 over 4 words, P(D2|Q) = 1/4 over 3.
    expect(weight.get('directed')).toBeCloseTo(0.3, 12);
    expect(weight.get('matrix')).toBeCloseTo(0.3, 12);
    const wachowskis = (3 / 4) * (2 / 4);
    const sequel = (1 / 4) * (1 / 3);
    const expansionTotal = wachowskis + 2 * sequel;
    expect(weight.get('wachowskis')).toBeCloseTo((0.4 * wachowskis) / expansionTotal, 12);
    expect(weight.get('sequel')).toBeCloseTo((0.4 * sequel) / expansionTotal, 12);
    expect(weight.has('ignored')).toBe(false);
    expect([...weight.values()].reduce((sum, value) => sum + value, 0)).toBeCloseTo(1, 12);
    expect(model[0].weight).toBeGreaterThanOrEqual(model[model.length - 1].weight);
  });

  it('writes weights as repetitions, the heaviest term maxRepeats times and every term at least once', () => {
    const text = repeatedText([{ term: 'matrix', weight: 0.3 }, { term: 'wachowskis', weight: 0.15 }, { term: 'sequel', weight: 0.01 }], 6);
    expect(text.split(' ').filter((word) => word === 'matrix')).toHaveLength(6);
    expect(text.split(' ').filter((word) => word === 'wachowskis')).toHaveLength(3);
    expect(text.split(' ').filter((word) => word === 'sequel')).toHaveLength(1);
  });

  it('never takes a function word for an expansion term, however common in the feedback', () => {
    const feedback = [{ text: 'Ferrer also starred in a film whose director also wrote it; Ferrer also sang', score: 1 }];
    const terms = relevanceModel('Ferrer film', feedback, { ...OPTIONS, terms: 10 }).map((entry) => entry.term);
    expect(terms).toContain('starred');
    expect(terms.filter((term) => ['also', 'whose', 'in', 'it'].includes(term))).toEqual([]);
  });

  it('counts words by their stem, as bm25 reads them: one slot per stem, none for a stem the query has', () => {
    const feedback = [{ text: 'films starring Ferrer; the film starred Ferrer in a film; a filmed scene', score: 1 }];
    const model = relevanceModel('Ferrer starred', feedback, { ...OPTIONS, terms: 10 });
    const terms = model.map((entry) => entry.term);
    // "films", "film" and "filmed" are one stem; its most frequent surface form is written.
    expect(terms.filter((term) => term.startsWith('film'))).toEqual(['film']);
    // "starring" shares the query's stem "star": not an expansion term.
    expect(terms).not.toContain('starring');
    const film = model.find((entry) => entry.term === 'film')?.weight ?? 0;
    const scene = model.find((entry) => entry.term === 'scene')?.weight ?? 0;
    expect(film).toBeCloseTo(4 * scene, 12);
  });

  it('gives nothing to expand without query words or positive feedback', () => {
    expect(relevanceModel('the of a', [{ text: 'matrix', score: 1 }], OPTIONS)).toEqual([]);
    expect(relevanceModel('matrix', [{ text: 'matrix film', score: 0 }], OPTIONS)).toEqual([]);
    expect(repeatedText([], 6)).toBe('');
  });
});
