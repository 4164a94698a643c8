/**
 * Retrievers built on top of the first-stage ones: hybrid (bm25 + dense, weighted RRF), the
 * trained reranker over bm25's head, and bm25 with RM3 feedback. Registered beside their parts so
 * the planner chooses between them by each one's reported capabilities; each reports what it is
 * composed of, so the planner never fuses it again with its own parts.
 */
import type { Database } from '../../../db/client';
import type { RetrieverPlugin } from '../../runtime/contracts/retriever';
import { DenseRetriever } from './dense-retriever';
import { type HybridOptions, HybridRetriever } from './hybrid-retriever';
import { LinearReranker } from './linear-reranker';
import { RerankRetriever } from './rerank-retriever';
import type { Rm3Options } from './rm3-expansion';
import { Rm3Retriever } from './rm3-retriever';

/**
 * The `linear` Reranker plugin when bm25 is registered (its weights were trained over bm25's head),
 * with the dense retriever's stored vectors for the cosine feature when there is one.
 */
export function createLinearReranker(database: Database, registered: readonly RetrieverPlugin[]): LinearReranker | undefined {
  const byMethod = new Map(registered.map((retriever) => [retriever.method, retriever]));
  const dense = byMethod.get('dense');
  return byMethod.has('bm25') ? new LinearReranker(database, dense instanceof DenseRetriever ? { dense } : {}) : undefined;
}

/**
 * The derived retrievers whose parts are registered and which are not registered yet. `linear`:
 * the registered linear Reranker, so the rerank retriever and `rerank` nodes share one.
 */
export function derivedRetrievers(database: Database, registered: readonly RetrieverPlugin[], options: { readonly hybrid?: Partial<HybridOptions>; readonly rm3?: Partial<Rm3Options>; readonly linear?: LinearReranker } = {}): RetrieverPlugin[] {
  const byMethod = new Map(registered.map((retriever) => [retriever.method, retriever]));
  const bm25 = byMethod.get('bm25');
  const dense = byMethod.get('dense');
  const derived: RetrieverPlugin[] = [];
  if (!bm25) return derived;
  if (!byMethod.has('hybrid') && dense) derived.push(new HybridRetriever(bm25, dense, options.hybrid));
  if (!byMethod.has('rerank')) derived.push(new RerankRetriever(database, bm25, {}, options.linear ?? createLinearReranker(database, registered)));
  if (!byMethod.has('rm3')) derived.push(new Rm3Retriever(database, bm25, options.rm3));
  return derived;
}
