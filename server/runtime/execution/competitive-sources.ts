import type { Hit } from '../types';

/**
 * A per-source retrieval interleaves each source's leader first, so every searched source gets a
 * place in the context whatever its evidence is worth. With nine sources and eight context slots,
 * freight dev d29 ("which commit …, and who wrote it?") was answered from the leaders of a demo
 * shop's logs, events and metrics — lines sharing one word with the question — while the second
 * commit that answered it fell below the cut. Where the retriever scores every source on one scale
 * (BM25 over one index), a source whose best hit scores under this share of the best source's best
 * holds no evidence comparable to the rest and leaves the interleaving. At 0.2–0.25 no relevant
 * source of the freight dev questions is left out (their leaders score at least 0.35 of the best);
 * at 0.3 one is (dev d74), so the share stays well below where relevant sources begin.
 */
export const COMPETITIVE_SOURCE_SHARE = 0.2;

/** Each source's ranked list, emptied when its best hit scores below `share` of the best source's best. */
export function keepCompetitiveSources(lists: readonly (readonly Hit[])[], share = COMPETITIVE_SOURCE_SHARE): (readonly Hit[])[] {
  const best = Math.max(0, ...lists.map((list) => list[0]?.score ?? 0));
  if (best <= 0) return [...lists];
  return lists.map((list) => ((list[0]?.score ?? 0) >= share * best ? list : []));
}
