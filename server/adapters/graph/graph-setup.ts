import type { Database } from '../../../db/client';
import type { CorpusStats } from '../db/corpus-stats';
import { ExactRetriever } from '../retrievers/exact-retriever';
import { type GraphRetrieverOptions, GraphRetriever } from '../retrievers/graph-retriever';
import { buildPendingDerivedIndexes, type DerivedIndexReport } from './graph-builder';
import { type GraphCacheOptions, GraphCache } from './graph-cache';

export interface GraphSetup {
  readonly graph: GraphRetriever;
  readonly exact: ExactRetriever;
  readonly cache: GraphCache;
  /**
   * Builds the entity graph and the identifier index for every current source version lacking
   * them, then makes the next graph search reload. Call after each ingest and once at start-up;
   * calls queue, so two ingests never build the same version twice at once.
   */
  indexPending(): Promise<readonly DerivedIndexReport[]>;
}

export interface GraphSetupOptions {
  readonly graph?: Partial<GraphRetrieverOptions>;
  readonly cache?: Partial<GraphCacheOptions>;
}

/** The exact and graph retrievers over one database, and the hook that keeps their indexes current. */
export function setupGraphRetrieval(database: Database, corpus: CorpusStats, options: GraphSetupOptions = {}): GraphSetup {
  const cache = new GraphCache(database, options.cache);
  let queue: Promise<unknown> = Promise.resolve();
  const indexPending = (): Promise<readonly DerivedIndexReport[]> => {
    const run = async () => {
      const reports = await buildPendingDerivedIndexes(database);
      if (reports.length > 0) cache.invalidate();
      return reports;
    };
    const next = queue.then(run, run);
    queue = next.catch(() => undefined);
    return next;
  };
  return Object.freeze({
    graph: new GraphRetriever(database, corpus, cache, options.graph),
    exact: new ExactRetriever(database, corpus),
    cache,
    indexPending,
  });
}
