import { describe, expect, it } from 'vitest';
import { MIN_CLASS_QUERIES, PRIOR_PSEUDO_QUERIES, ratioTarget } from '../../server/adapters/retrievers/fitted-prior-ratios';
import { RERANK_FEATURES } from '../../server/adapters/retrievers/rerank-features';
import { ndcgAt } from './metrics';
import { fitPriors, foldsOf, rerankOutOfFold, shrunkRatio } from './prior-fitting';
import type { QueryRecord } from './query-records';

const TITLE = RERANK_FEATURES.indexOf('title');
const HEAD = 10;

/**
 * A query whose one relevant document sits at head position `goldAt` in bm25's order; `signal`
 * says whether the title feature marks it (a reranker can learn that) or is zero everywhere.
 */
function record(index: number, options: { goldAt: number; signal: boolean; intent?: string; graph?: number }): QueryRecord {
  const documents = Array.from({ length: HEAD }, (_, position) => `q${index}-d${position}`);
  const features = documents.map((_, position) => RERANK_FEATURES.map((name, feature) => (feature === 0 ? 1 - position / HEAD : feature === TITLE && options.signal && position === options.goldAt ? 1 : 0)));
  const gold = [documents[options.goldAt]];
  const bm25 = ndcgAt(documents, new Set(gold), 10);
  return { set: 'synthetic', id: `q${index}`, intent: options.intent ?? 'conceptual', metric: 'ndcg@10', gold, scores: { bm25, graph: options.graph ?? bm25 / 2, rm3: bm25 }, head: { features, documents, tail: [] } };
}

const records = (count: number, options: Parameters<typeof record>[1]) => Array.from({ length: count }, (_, index) => record(index, { ...options, goldAt: (index % 4) + 1 }));

describe('out-of-fold prior fitting', () => {
  it('deals queries into k folds of near-equal size, the same way for the same seed', () => {
    const sample = records(23, { goldAt: 0, signal: false });
    const folds = foldsOf(sample, { folds: 5, seed: 7 });
    expect(folds.size).toBe(23);
    const sizes = [0, 1, 2, 3, 4].map((fold) => [...folds.values()].filter((value) => value === fold).length);
    expect(Math.max(...sizes) - Math.min(...sizes)).toBeLessThanOrEqual(1);
    expect(foldsOf(sample, { folds: 5, seed: 7 })).toEqual(folds);
    expect(foldsOf(sample, { folds: 5, seed: 8 })).not.toEqual(folds);
  });

  it('shrinks a ratio toward its target by the pseudo-queries: none measured keeps the target, many approach the measured ratio', () => {
    expect(shrunkRatio([], [], 1.26)).toBeCloseTo(1.26, 10);
    expect(shrunkRatio(Array(PRIOR_PSEUDO_QUERIES).fill(0.6), Array(PRIOR_PSEUDO_QUERIES).fill(0.5), 1)).toBeCloseTo(1.1, 10);
    expect(shrunkRatio(Array(10_000).fill(0.6), Array(10_000).fill(0.5), 1)).toBeCloseTo(1.2, 2);
  });

  it('prefers a reranker that ranks held-out queries better, with its rerank ratio from out-of-fold scores', () => {
    const fit = fitPriors(records(60, { goldAt: 0, signal: true }));
    expect(fit.reranker!.oofGain).toBeGreaterThan(0.2);
    expect(fit.ratios.rerank.conceptual).toBeGreaterThan(1.2);
    // Held out, the learned title weight lifts every relevant document to the top.
    expect([...rerankOutOfFold(records(60, { goldAt: 0, signal: true }), { folds: 5, seed: 7 }).values()].every((score) => score === 1)).toBe(true);
  });

  it('does not prefer a reranker with no out-of-fold gain, however its ratio comes out', () => {
    const fit = fitPriors(records(60, { goldAt: 0, signal: false }));
    expect(fit.reranker!.oofGain).toBeLessThanOrEqual(0);
    expect(fit.ratios.rerank.conceptual).toBeLessThanOrEqual(1);
  });

  it('fits each method per intent class from the records of that class only', () => {
    const sample = [...records(40, { goldAt: 0, signal: false, intent: 'multi_hop' }).map((entry) => ({ ...entry, id: `m${entry.id}`, scores: { ...entry.scores, graph: entry.scores.bm25 * 1.5 } })), ...records(40, { goldAt: 0, signal: false })];
    const fit = fitPriors(sample);
    expect(fit.classSizes).toEqual({ conceptual: 40, multi_hop: 40 });
    // 40 queries at 1.5 against the 1.26 target (20 pseudo-queries): (40·1.5 + 20·1.26) / 60.
    expect(fit.ratios.graph.multi_hop).toBeCloseTo((40 * 1.5 + 20 * 1.26) / 60, 6);
    expect(fit.ratios.graph.conceptual).toBeCloseTo((40 * 0.5 + 20 * ratioTarget('graph', 'conceptual')) / 60, 6);
    expect(fit.ratios.rm3.conceptual).toBeCloseTo(1, 10);
  });

  it('lets a class with fewer labelled queries than MIN_CLASS_QUERIES fall below its target but not rise above it', () => {
    const few = (factor: number) => records(MIN_CLASS_QUERIES - 1, { goldAt: 0, signal: false, intent: 'incident' }).map((entry) => ({ ...entry, id: `i${entry.id}`, scores: { ...entry.scores, graph: entry.scores.bm25 * factor } }));
    const fit = fitPriors([...few(3), ...records(40, { goldAt: 0, signal: false })]);
    expect(fit.ratios.graph.incident).toBe(ratioTarget('graph', 'incident'));
    expect(fitPriors([...few(0.1), ...records(40, { goldAt: 0, signal: false })]).ratios.graph.incident).toBeLessThan(ratioTarget('graph', 'incident'));
    expect(fit.ratios.graph.conceptual).not.toBe(ratioTarget('graph', 'conceptual'));
  });
});
