/**
 * The bench runtime's plugins with one fold's fit in place of the shipped constants: each fitted
 * method reports bm25's prior scaled by the fold's ratios, and `rerank` ranks with the fold's
 * weights. Everything else (intent analysis, candidates, cost model, optimizer, execution) is the
 * runtime's own, so a held-out query is planned exactly as a user's would be, minus the labels.
 */
import type { Database } from '../../db/client';
import { DenseRetriever } from '../../server/adapters/retrievers/dense-retriever';
import { type FusionRatioTable, fusionCapability } from '../../server/adapters/retrievers/fitted-fusion-ratios';
import { FITTED_METHODS, type FittedMethod, scaledRecallPrior } from '../../server/adapters/retrievers/fitted-prior-ratios';
import { RERANK_FEATURES } from '../../server/adapters/retrievers/rerank-features';
import type { RerankModel } from '../../server/adapters/retrievers/rerank-model';
import { RerankRetriever } from '../../server/adapters/retrievers/rerank-retriever';
import type { RetrievalQuery, RetrieverCapabilities, RetrieverPlugin } from '../../server/runtime/contracts/retriever';
import type { RuntimePlugins } from '../../server/runtime/facade/runtime-plugins';
import type { FittedPriors } from './prior-fitting';

/** A retriever whose capabilities report another recall prior and the fold's fusion ratios (not the shipped ones); search is the inner one's. */
function withRecallPrior(inner: RetrieverPlugin, recallPrior: (capabilities: RetrieverCapabilities) => RetrieverCapabilities['recallPrior'], fusion: FusionRatioTable): RetrieverPlugin {
  return Object.freeze({
    contract: inner.contract,
    method: inner.method,
    capabilities: () => {
      const { fusionRatios: _shipped, ...capabilities } = inner.capabilities();
      return Object.freeze({ ...capabilities, recallPrior: recallPrior(capabilities), ...fusionCapability(inner.method, fusion) });
    },
    search: (query: RetrievalQuery) => inner.search(query),
  });
}

/** PgStore keeps its handle private; bench-runtime.ts and scripts/tune.ts read it the same way. */
const databaseOf = (plugins: RuntimePlugins): Database => (plugins.store as unknown as { database: Database }).database;

/**
 * A rerank retriever over the registered bm25 with the fold's weights (the cosine feature from the
 * registered dense). The same weights serve as its lexical model: the shipped lexical one was
 * trained on SciFact train, which would leak labels into a fold.
 */
export function foldRerankRetriever(plugins: RuntimePlugins, fit: FittedPriors, id: string): RerankRetriever | undefined {
  const bm25 = plugins.retrievers.find((retriever) => retriever.method === 'bm25');
  const dense = plugins.retrievers.find((retriever) => retriever.method === 'dense');
  if (!bm25 || !fit.reranker) return undefined;
  const embedder = dense instanceof DenseRetriever ? dense.embedder.id : undefined;
  const model: RerankModel = Object.freeze({ id, weights: Object.freeze(fit.reranker.weights.slice(0, RERANK_FEATURES.length)), oofGain: fit.reranker.oofGain, ...(embedder ? { cosineEmbedderId: embedder } : {}) });
  return new RerankRetriever(databaseOf(plugins), bm25, { model, lexicalModel: model, ...(dense instanceof DenseRetriever ? { dense } : {}) });
}

export function pluginsWithFit(plugins: RuntimePlugins, fit: FittedPriors, foldRerank?: RetrieverPlugin): RuntimePlugins {
  const bm25 = plugins.retrievers.find((retriever) => retriever.method === 'bm25');
  if (!bm25) return plugins;
  const retrievers = plugins.retrievers.map((retriever) => {
    const inner = retriever.method === 'rerank' && foldRerank ? foldRerank : retriever;
    if (!(FITTED_METHODS as readonly string[]).includes(inner.method)) return inner;
    const method = inner.method as FittedMethod;
    return withRecallPrior(inner, () => scaledRecallPrior(bm25.capabilities().recallPrior, method, fit.ratios[method]), fit.fusion);
  });
  return { ...plugins, retrievers };
}
