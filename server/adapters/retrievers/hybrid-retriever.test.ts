/** Weighted RRF arithmetic; the retriever over real bm25 and dense is tested in rerank-retriever.test.ts. */
import { describe, expect, it } from 'vitest';
import type { Hit } from '../../runtime/types';
import { DEFAULT_HYBRID_OPTIONS, fuseWeighted } from './hybrid-retriever';

const hit = (chunkId: string, method: string): Hit => ({ chunkId, sourceName: 's', sourceKind: 'docs', sourceVersionId: 'v', title: chunkId, text: chunkId, score: 1, rank: 1, method, tokens: 3 });
const list = (ids: string, method: string) => ids.split('').map((id) => hit(id, method));

describe('weighted reciprocal rank fusion', () => {
  it('scores Σ weight/(k + rank) and keeps each hit once', () => {
    const fused = fuseWeighted([{ hits: list('abc', 'bm25'), weight: 1 }, { hits: list('cd', 'dense'), weight: 0.5 }], 10, 10, 'hybrid');
    const score = new Map(fused.map((entry) => [entry.chunkId, entry.score]));
    expect(score.get('a')).toBeCloseTo(1 / 11, 12);
    expect(score.get('c')).toBeCloseTo(1 / 13 + 0.5 / 11, 12);
    expect(score.get('d')).toBeCloseTo(0.5 / 12, 12);
    expect(fused.map((entry) => entry.chunkId)).toEqual(['c', 'a', 'b', 'd']);
    fused.forEach((entry, index) => expect(entry).toMatchObject({ rank: index + 1, method: 'hybrid' }));
  });

  it('with the defaults dense cannot pass bm25\'s first hit, only reorder below it', () => {
    const { rrfK, lexicalWeight, semanticWeight } = DEFAULT_HYBRID_OPTIONS;
    const fused = fuseWeighted([{ hits: list('abcde', 'bm25'), weight: lexicalWeight }, { hits: list('edc', 'dense'), weight: semanticWeight }], rrfK, 5, 'hybrid');
    expect(fused[0].chunkId).toBe('a');
    // e, bm25's 5th and dense's 1st (1/6 + 0.1/2 = 0.217), stays behind d (1/5 + 0.1/3 = 0.233).
    expect(fused.map((entry) => entry.chunkId)).toEqual(['a', 'b', 'c', 'd', 'e']);
    const tie = fuseWeighted([{ hits: list('ab', 'bm25'), weight: 1 }, { hits: list('ba', 'dense'), weight: 1 }], 60, 2, 'hybrid');
    // Equal scores: the lexical list's order decides, deterministically.
    expect(tie.map((entry) => entry.chunkId)).toEqual(['a', 'b']);
  });

  it('honours the limit and empty lists', () => {
    expect(fuseWeighted([{ hits: list('abc', 'bm25'), weight: 1 }], 1, 2, 'hybrid').map((entry) => entry.chunkId)).toEqual(['a', 'b']);
    expect(fuseWeighted([{ hits: [], weight: 1 }, { hits: [], weight: 0.1 }], 1, 5, 'hybrid')).toEqual([]);
  });
});
