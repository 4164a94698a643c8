import type { Database } from '../../../db/client';
import { RETRIEVER_CONTRACT, type RetrievalQuery, type RetrieverCapabilities, type RetrieverPlugin } from '../../runtime/contracts/retriever';
import type { Hit } from '../../runtime/types';
import { bm25Rows } from './bm25-retriever';
import { clampK, toHits } from './chunk-hits';
import { scaledRecallPrior } from './fitted-prior-ratios';
import { fusionCapability } from './fitted-fusion-ratios';
import { relevanceModel, repeatedText, type Rm3Options } from './rm3-expansion';

/**
 * One feedback document, twenty terms, λ = 0.6 (config `retrieval.rm3` overrides each). Chosen out
 * of sample by leaving one dataset out (bench/retrieval/RESULTS.md, "rm3's options by leaving one
 * dataset out"): on a 45-point grid, the point with the best mean nDCG@10 over the other two sets
 * had one document and twenty terms for each of SciFact, MuSiQue and HotpotQA; λ was 0.6 for two
 * of them (0.7 for MuSiQue) and is kept at its earlier value. A second feedback document drifts:
 * most questions here have one relevant passage in bm25's head, and its neighbour adds its own topic.
 */
export const DEFAULT_RM3_OPTIONS: Rm3Options = Object.freeze({ documents: 1, terms: 20, originalWeight: 0.6, maxRepeats: 6 });

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
      ...fusionCapability(this.method),
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
