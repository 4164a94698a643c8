import type { Hit } from '../types';

/**
 * A per-source retrieval interleaves each source's leader first, so every searched source gets a
 * place in the context whatever its evidence is worth: with a demo shop's five sources beside a
 * freight team's four and eight context slots, the leaders alone filled the context of a freight
 * question. Where the retriever scores every source on one scale (BM25 over one index), a source
 * whose best hit scores under this share of the best source's best holds no evidence comparable to
 * the rest and leaves the interleaving. On the freight dev questions no relevant source's leader
 * scores under 0.35 of the best; at 0.2 or 0.25 one question gained (d29) and none lost, at 0.3 one
 * lost (d74), at 0.4 four — so the share stays well below where relevant sources begin.
 */
export const COMPETITIVE_SOURCE_SHARE = 0.2;

/** Each source's ranked list, emptied when its best hit scores below `share` of the best source's best. */
export function keepCompetitiveSources(lists: readonly (readonly Hit[])[], share = COMPETITIVE_SOURCE_SHARE): (readonly Hit[])[] {
  const best = Math.max(0, ...lists.map((list) => list[0]?.score ?? 0));
  if (best <= 0) return [...lists];
  return lists.map((list) => ((list[0]?.score ?? 0) >= share * best ? list : []));
}
