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
