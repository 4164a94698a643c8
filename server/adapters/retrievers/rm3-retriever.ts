import type { Database } from '../../../db/client';
import { RETRIEVER_CONTRACT, type RetrievalQuery, type RetrieverCapabilities, type RetrieverPlugin } from '../../runtime/contracts/retriever';
import type { Hit } from '../../runtime/types';
import { bm25Rows } from './bm25-retriever';
import { clampK, toHits } from './chunk-hits';
import { scaledRecallPrior } from './fitted-prior-ratios';
import { relevanceModel, repeatedText, type Rm3Options } from './rm3-expansion';

/**
 * Chosen by measurement (bench/retrieval/RESULTS.md): two feedback documents, ten terms, λ = 0.6.
 * Multi-hop questions gain (the first hop's passage names the bridge entity the second needs);
 * SciFact claims lose a little (one relevant abstract per claim: feedback drifts to its neighbours).
 */
export const DEFAULT_RM3_OPTIONS: Rm3Options = Object.freeze({ documents: 2, terms: 10, originalWeight: 0.6, maxRepeats: 6 });

/**
 * bm25 with RM3 pseudo-relevance feedback: a first pass through the first-stage retriever (bm25),
 * then one pg_textsearch query for the interpolated model written as term repetitions
 * (rm3-expansion.ts). The second pass is this class's own SQL because the bm25 plugin de-duplicates
 * terms, which would erase the weights.
 */
export class Rm3Retriever implements RetrieverPlugin {
  readonly contract = RETRIEVER_CONTRACT;
  readonly method = 'rm3';
  readonly options: Rm3Options;

  constructor(
    private readonly database: Database,
    private readonly firstStage: RetrieverPlugin,
    options: Partial<Rm3Options> = {},
  ) {
    this.options = Object.freeze({ ...DEFAULT_RM3_OPTIONS, ...options });
  }

  capabilities(): RetrieverCapabilities {
    const first = this.firstStage.capabilities();
    // The first stage's prior scaled by rm3's fitted ratios per intent (fitted-prior-ratios.ts).
    const recallPrior = scaledRecallPrior(first.recallPrior, 'rm3');
    return Object.freeze({
      method: this.method,
      available: first.available,
      ...(first.available ? {} : { unavailableReason: `${first.method} unavailable: ${first.unavailableReason ?? 'no reason given'}` }),
      requires: Object.freeze(['pg_textsearch']),
      latencyMs: 2 * first.latencyMs,
      recallPrior,
      composedOf: Object.freeze([first.method, ...(first.composedOf ?? [])]),
      ...(first.sourceKinds ? { sourceKinds: first.sourceKinds } : {}),
    });
  }

  async search(query: RetrievalQuery): Promise<readonly Hit[]> {
    const k = clampK(query.k);
    if (k === 0 || query.sources.length === 0 || !this.firstStage.capabilities().available) return [];
    const feedback = await this.firstStage.search({ ...query, k: Math.max(1, this.options.documents) });
    query.signal?.throwIfAborted();
    const original = [query.text, ...(query.identifiers ?? [])].join(' ');
    const model = relevanceModel(original, feedback.map((hit) => ({ text: `${hit.title}\n${hit.text}`, score: hit.score })), this.options);
    const text = repeatedText(model, this.options.maxRepeats);
    if (text === '') return (await this.firstStage.search({ ...query, k })).map((hit) => ({ ...hit, method: this.method }));
    const rows = await bm25Rows(this.database, text, query.sources, k);
    query.signal?.throwIfAborted();
    return toHits(rows, this.method);
  }
}
