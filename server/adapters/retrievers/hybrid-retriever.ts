import { RETRIEVER_CONTRACT, type RetrievalQuery, type RetrieverCapabilities, type RetrieverPlugin } from '../../runtime/contracts/retriever';
import type { Hit } from '../../runtime/types';
import { clampK } from './chunk-hits';

export interface HybridOptions {
  /** RRF constant k in Σ weight/(k + rank). */
  readonly rrfK: number;
  /** Weight of the lexical list's reciprocal ranks. */
  readonly lexicalWeight: number;
  /** Weight of the semantic list's reciprocal ranks. */
  readonly semanticWeight: number;
  /** Hits fetched from each retriever before fusing (at least k). */
  readonly depth: number;
}

/**
 * Defaults chosen by measurement over bm25's and dense's top-100 on the three train sets
 * (bench/retrieval/RESULTS.md), nDCG@10 SciFact / HotpotQA / MuSiQue: bm25 0.695 / 0.811 / 0.547;
 * equal weights at k = 60 (Cormack et al. 2009) 0.497 / 0.687 / 0.388, because the offline SIF
 * list (0.32 / 0.51 / 0.26) pulls its confident mistakes into the head; k = 60 with dense weight
 * 0.1 still 0.647 / 0.795 / 0.492. With k = 1 and weight 0.1 a reciprocal rank falls so fast
 * (1/2, 1/3, 1/4…) that dense cannot pass bm25's head and only reorders near-ties below it:
 * 0.696 / 0.811 / 0.556, the best of the k × weight grid on all three together. A trained
 * provider embedder earns a larger semanticWeight; measure before raising it.
 */
export const DEFAULT_HYBRID_OPTIONS: HybridOptions = Object.freeze({ rrfK: 1, lexicalWeight: 1, semanticWeight: 0.1, depth: 100 });

/**
 * Weighted Reciprocal Rank Fusion of a lexical and a semantic retriever (bm25 and dense in the
 * default wiring). Unavailable unless both are: a "hybrid" that silently ran one half would be a
 * plain retriever under another name.
 */
export class HybridRetriever implements RetrieverPlugin {
  readonly contract = RETRIEVER_CONTRACT;
  readonly method = 'hybrid';
  readonly options: HybridOptions;

  constructor(
    private readonly lexical: RetrieverPlugin,
    private readonly semantic: RetrieverPlugin,
    options: Partial<HybridOptions> = {},
  ) {
    this.options = Object.freeze({ ...DEFAULT_HYBRID_OPTIONS, ...options });
  }

  capabilities(): RetrieverCapabilities {
    const lexical = this.lexical.capabilities();
    const semantic = this.semantic.capabilities();
    const missing = [lexical, semantic].find((part) => !part.available);
    // Fusion finds what either half finds in its depth, so the prior is at least the better half's.
    const intents = new Set([...Object.keys(lexical.recallPrior), ...Object.keys(semantic.recallPrior)]);
    const recallPrior = Object.fromEntries([...intents].map((intent) => [intent, Math.max(lexical.recallPrior[intent] ?? 0, semantic.recallPrior[intent] ?? 0)]));
    return Object.freeze({
      method: this.method,
      available: missing === undefined,
      ...(missing ? { unavailableReason: `${missing.method} unavailable: ${missing.unavailableReason ?? 'no reason given'}` } : {}),
      requires: Object.freeze([...new Set([...lexical.requires, ...semantic.requires])]),
      // PGlite runs one statement at a time, so the halves' latencies add up.
      latencyMs: lexical.latencyMs + semantic.latencyMs,
      recallPrior: Object.freeze(recallPrior),
      composedOf: Object.freeze([lexical.method, ...(lexical.composedOf ?? []), semantic.method, ...(semantic.composedOf ?? [])]),
    });
  }

  async search(query: RetrievalQuery): Promise<readonly Hit[]> {
    const k = clampK(query.k);
    if (k === 0) return [];
    const depth = clampK(Math.max(k, this.options.depth));
    const [lexical, semantic] = await Promise.all([this.lexical.search({ ...query, k: depth }), this.semantic.search({ ...query, k: depth })]);
    query.signal?.throwIfAborted();
    return fuseWeighted(
      [
        { hits: lexical, weight: this.options.lexicalWeight },
        { hits: semantic, weight: this.options.semanticWeight },
      ],
      this.options.rrfK,
      k,
      this.method,
    );
  }
}

/** Σ weight/(rrfK + rank) per chunk; ties go to the earlier list's better rank, then chunk id, so results are deterministic. */
export function fuseWeighted(lists: readonly { readonly hits: readonly Hit[]; readonly weight: number }[], rrfK: number, limit: number, method: string): readonly Hit[] {
  const fused = new Map<string, { hit: Hit; score: number; firstRank: number }>();
  lists.forEach(({ hits, weight }, listIndex) => {
    hits.forEach((hit, index) => {
      const entry = fused.get(hit.chunkId) ?? { hit, score: 0, firstRank: listIndex * 1e6 + index };
      entry.score += weight / (rrfK + index + 1);
      fused.set(hit.chunkId, entry);
    });
  });
  return Object.freeze(
    [...fused.values()]
      .sort((a, b) => b.score - a.score || a.firstRank - b.firstRank || a.hit.chunkId.localeCompare(b.hit.chunkId))
      .slice(0, limit)
      .map((entry, index) => Object.freeze({ ...entry.hit, score: entry.score, rank: index + 1, method })),
  );
}
