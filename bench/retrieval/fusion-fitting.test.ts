import { describe, expect, it } from 'vitest';
import { fusionRatiosOf } from '../../server/adapters/retrievers/fitted-fusion-ratios';
import { MIN_CLASS_QUERIES } from '../../server/adapters/retrievers/fitted-prior-ratios';
import { fitFusionRatios, fuseRankings, recordRankings } from './fusion-fitting';
import { type QueryRecord, scoreRanking } from './query-records';

const fillers = (prefix: string, count: number) => Array.from({ length: count }, (_, index) => `${prefix}${String(index).padStart(2, '0')}`);

/** A Recall@5 record whose bm25 and graph rankings are given; scores are computed from them. */
function record(id: string, gold: string[], rankings: { bm25: string[]; graph: string[] }, set = 'wiki', intent = 'multi_hop'): QueryRecord {
  const scores = Object.fromEntries(Object.entries(rankings).map(([method, ranked]) => [method, scoreRanking('recall@5', ranked, new Set(gold))]));
  return { set, id, intent, metric: 'recall@5', gold, scores, rankings };
}

const fit = (records: QueryRecord[]) => fitFusionRatios(records, ['bm25', 'graph'], recordRankings(new Map()));
const many = (count: number, make: (index: number) => QueryRecord) => Array.from({ length: count }, (_, index) => make(index));

describe('fusion fitting', () => {
  it('fuses rankings as the runtime does: a document in both lists first, ties by id', () => {
    expect(fuseRankings([['a', 'b', 'c'], ['c', 'd']])).toEqual(['c', 'a', 'b', 'd']);
    expect(fuseRankings([['y'], ['x']])).toEqual(['x', 'y']);
  });

  it('rates a pair below 1 where the fused list pushes the better member’s evidence out of the top 5', () => {
    // graph finds the gold passage 4th; bm25 finds only other passages, which fusion interleaves above it.
    const records = many(40, (index) => record(`q${index}`, [`q${index}-gold`], { bm25: fillers(`q${index}-b`, 10), graph: [...fillers(`q${index}-g`, 3), `q${index}-gold`] }));
    const ratio = fit(records)['bm25+graph']?.multi_hop;
    expect(ratio).toBeLessThan(1);
  });

  it('rates a pair above 1 where each member finds one of two gold passages the other misses', () => {
    const records = many(40, (index) => record(`q${index}`, [`q${index}-g1`, `q${index}-g2`], { bm25: [`q${index}-g1`, ...fillers(`q${index}-b`, 9)], graph: [`q${index}-g2`, ...fillers(`q${index}-c`, 9)] }));
    expect(fit(records)['bm25+graph']?.multi_hop).toBeGreaterThan(1);
  });

  it('leaves a class with fewer than MIN_CLASS_QUERIES queries unmeasured (the formula stands)', () => {
    const records = many(MIN_CLASS_QUERIES - 1, (index) => record(`q${index}`, [`q${index}-gold`], { bm25: fillers(`q${index}-b`, 10), graph: [...fillers(`q${index}-g`, 3), `q${index}-gold`] }));
    expect(fit(records)).toEqual({});
  });

  it('compares with the better member of each set, so switching members between corpora is not counted as fusion’s gain', () => {
    // On one set only bm25 finds the passage, on the other only graph; fused, both are found. Against
    // the pooled better member that is a gain; against each set's better member it is none.
    const onBm25 = many(30, (index) => record(`b${index}`, [`b${index}-a`], { bm25: [`b${index}-a`, ...fillers(`b${index}-x`, 9)], graph: fillers(`b${index}-y`, 10) }, 'claims'));
    const onGraph = many(30, (index) => record(`g${index}`, [`g${index}-a`], { bm25: fillers(`g${index}-x`, 10), graph: [`g${index}-a`, ...fillers(`g${index}-y`, 9)] }, 'wiki'));
    expect(fit([...onBm25, ...onGraph])['bm25+graph']?.multi_hop).toBeCloseTo(1, 9);
  });

  it('fits only pairs with a fitted method in them, and hands each member its partners', () => {
    const records = many(30, (index) => ({ ...record(`q${index}`, [`q${index}-gold`], { bm25: [`q${index}-gold`], graph: [] }), rankings: { bm25: [`q${index}-gold`], dense: [`q${index}-gold`], graph: [] }, scores: { bm25: 1, dense: 1, graph: 0 } }));
    const table = fitFusionRatios(records, ['bm25', 'dense', 'graph'], recordRankings(new Map()));
    expect(Object.keys(table).sort()).toEqual(['bm25+graph', 'dense+graph']);
    expect(fusionRatiosOf('graph', table)).toEqual({ bm25: table['bm25+graph'], dense: table['dense+graph'] });
    expect(fusionRatiosOf('rm3', table)).toEqual({});
  });
});
