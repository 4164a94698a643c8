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
import { RerankRetriever } from './rerank-retriever';
import { Rm3Retriever } from './rm3-retriever';

/** The derived retrievers whose parts are registered and which are not registered yet. */
export function derivedRetrievers(database: Database, registered: readonly RetrieverPlugin[], options: { readonly hybrid?: Partial<HybridOptions> } = {}): RetrieverPlugin[] {
  const byMethod = new Map(registered.map((retriever) => [retriever.method, retriever]));
  const bm25 = byMethod.get('bm25');
  const dense = byMethod.get('dense');
  const derived: RetrieverPlugin[] = [];
  if (!bm25) return derived;
  if (!byMethod.has('hybrid') && dense) derived.push(new HybridRetriever(bm25, dense, options.hybrid));
  if (!byMethod.has('rerank')) derived.push(new RerankRetriever(database, bm25, dense instanceof DenseRetriever ? { dense } : {}));
  if (!byMethod.has('rm3')) derived.push(new Rm3Retriever(database, bm25));
  return derived;
}
