import type { Hit } from '../types';

/**
 * Reciprocal Rank Fusion (Cormack, Clarke & Büttcher, SIGIR 2009): score(d) = Σ 1/(k + rank_i(d)).
 * k = 60 is the paper's constant; it damps the head so one list cannot dominate.
 */
export function reciprocalRankFusion(lists: readonly (readonly Hit[])[], rrfK: number, limit: number): Hit[] {
  const fused = new Map<string, { hit: Hit; score: number; methods: string[] }>();
  for (const list of lists) {
    list.forEach((hit, index) => {
      const entry = fused.get(hit.chunkId) ?? { hit, score: 0, methods: [] };
      entry.score += 1 / (rrfK + index + 1);
      entry.methods.push(hit.method);
      fused.set(hit.chunkId, entry);
    });
  }
  return [...fused.values()]
    .sort((a, b) => b.score - a.score || a.hit.chunkId.localeCompare(b.hit.chunkId))
    .slice(0, limit)
    .map((entry, index) => ({ ...entry.hit, score: entry.score, rank: index + 1, method: entry.methods.join('+') }));
}
