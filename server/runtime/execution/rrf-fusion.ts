import type { Hit } from '../types';

/**
 * Reciprocal Rank Fusion (Cormack, Clarke & Büttcher, SIGIR 2009): score(d) = Σ w_i/(k + rank_i(d)).
 * k = 60 is the paper's constant; it damps the head so one list cannot dominate. `weights` (one per
 * list, 1 when absent) count a list as that many lists.
 */
export function reciprocalRankFusion(lists: readonly (readonly Hit[])[], rrfK: number, limit: number, weights?: readonly number[]): Hit[] {
  const fused = new Map<string, { hit: Hit; score: number; methods: string[] }>();
  for (const [listIndex, list] of lists.entries()) {
    const weight = weights?.[listIndex] ?? 1;
    list.forEach((hit, index) => {
      const entry = fused.get(hit.chunkId) ?? { hit, score: 0, methods: [] };
      entry.score += weight / (rrfK + index + 1);
      entry.methods.push(hit.method);
      fused.set(hit.chunkId, entry);
    });
  }
  return [...fused.values()]
    .sort((a, b) => b.score - a.score || a.hit.chunkId.localeCompare(b.hit.chunkId))
    .slice(0, limit)
    .map((entry, index) => ({ ...entry.hit, score: entry.score, rank: index + 1, method: entry.methods.join('+') }));
}

/**
 * Moves `leader` (a hit of the fused list) up to `rank` (1-based) when it sits lower; the order of
 * the others is kept. A list whose best hit must reach the context whatever the other lists agree
 * on: the moment hop's (time-window-hop in graph-builder.ts). Sharing no hits with the goal's other
 * searches, its leader scores 1/(k+1) in RRF against items three hop lists repeat, and fell below
 * the eight the context keeps (freight dev d92: the 15:00 disk row of the afternoon asked about).
 */
export function withLeaderAt(fused: readonly Hit[], leader: Hit | undefined, rank: number): readonly Hit[] {
  const at = leader ? fused.findIndex((hit) => hit.chunkId === leader.chunkId) : -1;
  if (at < rank) return fused;
  const moved = [...fused.slice(0, rank - 1), fused[at], ...fused.slice(rank - 1, at), ...fused.slice(at + 1)];
  return moved.map((hit, index) => (hit.rank === index + 1 ? hit : { ...hit, rank: index + 1 }));
}
