import { type Database, openDatabase, type OpenDatabaseOptions } from '../../../db/client';
import { assertSeparateRoles, grantApplicationRole, roleOfUrl } from '../../../db/application-grants';
import { migrateDatabase, type MigrationReport } from '../../../db/migrate';
import { reapplyCapabilityMigration } from '../../../db/capability-migration';
import type { RetrieverPlugin } from '../../runtime/contracts/retriever';
import type { StoreCapabilities } from '../../runtime/contracts/store';
import { type DenseSetupOptions, setupDenseRetrieval } from '../embeddings/dense-setup';
import type { EmbedPendingReport } from '../embeddings/embed-pending';
import { Bm25Retriever } from '../retrievers/bm25-retriever';
import { FulltextRetriever } from '../retrievers/fulltext-retriever';
import { CorpusStats } from './corpus-stats';
import { backfillSearchVectors, type SearchVectorBackfillReport } from './search-vector-backfill';
import { PendingSearchVectors } from './pending-search-vectors';
import { backfillSensitiveMarking, type SensitiveMarkingReport } from './sensitive-marking-backfill';
import { chunkRowCacheOf } from '../retrievers/chunk-row-cache';
import { setupGraphRetrieval } from '../graph/graph-setup';
import type { DerivedIndexReport } from '../graph/graph-builder';
import { PgKnowledge } from './pg-knowledge';
import { PgObservationStore } from './pg-observation-store';
import { PgPlanCache } from './pg-plan-cache';
import { PgRunStore } from './pg-run-store';
import { PgStore } from './pg-store';
import { PgTraceSink } from './pg-trace-sink';
import { BM25_INDEX_NAME, detectStoreCapabilities, indexExists } from './store-capabilities';

export interface OpenStoresOptions extends OpenDatabaseOptions {
  /**
   * A server's migration role (MIGRATION_DATABASE_URL): migrations run through it, then `url`'s
   * role is granted only what the application needs (db/application-grants.ts). Without it the
   * application role migrates and owns the schema itself (embedded PGlite, single-role servers).
   */
  readonly migrationUrl?: string;
  /** plan_cache.ttl_seconds from the config; undefined = entries never expire. */
  readonly planCacheTtlSeconds?: number;
  /** Re-derive knowledge nodes on every source change (default true; tests of the sync itself turn it off). */
  readonly syncKnowledgeOnIngest?: boolean;
  /** Embedder behind the dense retriever (default: offline SIF, server/adapters/embeddings) and its cache path. */
  readonly dense?: DenseSetupOptions;
  /** ingest.commit_batch_chunks (PgStore): chunks per write transaction of a large source. */
  readonly commitBatchChunks?: number;
}

export interface Stores {
  readonly database: Database;
  readonly migrations: MigrationReport;
  /** Chunks written before the sensitive marking existed, marked at this start (none on a later start). */
  readonly sensitiveMarking: SensitiveMarkingReport;
  readonly capabilities: StoreCapabilities;
  readonly store: PgStore;
  readonly runStore: PgRunStore;
  readonly traceSink: PgTraceSink;
  readonly planCache: PgPlanCache;
  readonly observationStore: PgObservationStore;
  readonly knowledge: PgKnowledge;
  /** bm25 (available only with pg_textsearch) and fulltext (always), in that order. */
  readonly retrievers: readonly RetrieverPlugin[];
  /** pgvector HNSW over chunk embeddings; unavailable (with the reason) without `vector`. Kept apart from `retrievers` so callers opt in. */
  readonly dense: RetrieverPlugin;
  /** Embeds current chunks that lack a vector from the configured embedder: call after ingest and at start-up. */
  /** `live`: requests are being served meanwhile, so the HNSW index is kept live (embed-pending.ts). */
  embedChunks(options?: { readonly live?: boolean; readonly signal?: AbortSignal }): Promise<EmbedPendingReport>;
  /** Entity graph (graph retriever) and identifier index (exact retriever). */
  readonly graph: RetrieverPlugin;
  readonly exact: RetrieverPlugin;
  /** Fills the stored search vectors ingest left empty (see search-vector-backfill.ts); indexDerived calls it first. */
  fillSearchVectors(): Promise<SearchVectorBackfillReport>;
  /**
   * Builds the search vectors, graph and identifier indexes of every current version lacking them; call after each ingest.
   * `startUp`: nobody is served yet, so dead rows are reclaimed whatever the table's size (search-vector-backfill.ts).
   */
  indexDerived(options?: { readonly startUp?: boolean }): Promise<readonly DerivedIndexReport[]>;
  /**
   * Loads current chunk rows into the retrievers' in-process cache, up to its bound, and the
   * embedder's word vectors (dense-setup.ts); returns how many rows.
   */
  warmCaches(): Promise<number>;
  close(): Promise<void>;
}

/** Opens the database, brings its schema up to date, discovers what it can do and wires every Postgres-backed plugin. */
export async function openStores(options: OpenStoresOptions): Promise<Stores> {
  const migrations = options.migrationUrl && options.url ? await migrateAsOwner(options.migrationUrl, options.url) : undefined;
  const database = await openDatabase(options);
  try {
    // Start-up work (migration backfills, the knowledge sync over every source): nobody is served
    // yet, and on a large corpus a statement may take longer than the deadline requests and runs get.
    return await database.withoutDeadline(async () => wireStores(database, migrations ?? (await migrateInPlace(database)), options));
  } catch (error) {
    await database.close().catch(() => undefined);
    throw error;
  }
}

async function migrateInPlace(database: Database): Promise<MigrationReport> {
  const migrations = await migrateDatabase(database);
  await reapplyCapabilityMigration(database, migrations.folder);
  return migrations;
}

/** Migrates through the owner's connection, grants the application role its share, and closes it. */
async function migrateAsOwner(migrationUrl: string, url: string): Promise<MigrationReport> {
  const applicationRole = roleOfUrl(url);
  assertSeparateRoles(roleOfUrl(migrationUrl), applicationRole);
  const owner = await openDatabase({ url: migrationUrl });
  try {
    const migrations = await migrateInPlace(owner);
    await grantApplicationRole(owner, applicationRole);
    return migrations;
  } finally {
    await owner.close();
  }
}

async function wireStores(database: Database, migrations: MigrationReport, options: OpenStoresOptions): Promise<Stores> {
  const capabilities = await detectStoreCapabilities(database);
  // Before anything reads a chunk: an unmarked row would otherwise count as sensitive.
  const sensitiveMarking = await backfillSensitiveMarking(database);
  const corpus = new CorpusStats(database);
  await corpus.refresh();
  const bm25Ready = capabilities.extensions.pg_textsearch === true && (await indexExists(database, BM25_INDEX_NAME));
  const bm25Reason = capabilities.extensions.pg_textsearch
    ? `index ${BM25_INDEX_NAME} is missing although pg_textsearch is installed`
    : capabilities.missing.pg_textsearch;
  const store = new PgStore(database, capabilities, corpus, options.commitBatchChunks);
  const dense = await setupDenseRetrieval(database, capabilities, corpus, options.dense);
  const bm25 = new Bm25Retriever(database, corpus, { available: bm25Ready, ...(bm25Ready ? {} : { reason: bm25Reason }) });
  // With pg_textsearch, ingest leaves search vectors to the backfill; fulltext fills any an ingest
  // since the last backfill may have left, and skips the backfill's scan otherwise.
  const pendingVectors = new PendingSearchVectors(() => backfillSearchVectors(database));
  if (capabilities.extensions.pg_textsearch) store.onChunksWriting(() => pendingVectors.markPending());
  const fulltext = new FulltextRetriever(database, corpus, capabilities.extensions.pg_textsearch ? () => pendingVectors.fillIfPending() : undefined);
  // PPR also seeds from the best lexical passages (HippoRAG 2's passage nodes): bm25 where it exists.
  const graphRetrieval = setupGraphRetrieval(database, corpus, { graph: { passageSeeder: bm25Ready ? bm25 : fulltext } });
  const knowledge = new PgKnowledge(database, store);
  const planCache = new PgPlanCache(database, {
    ttlSeconds: options.planCacheTtlSeconds,
    sourceNamesOf: (fingerprint) => knowledge.namesOf(fingerprint),
  });
  // A source that changed or went stale retires the plans that drew on it.
  store.onSourceChanged((name) => planCache.invalidateSource(name).then(() => undefined));
  // …and re-derives its knowledge nodes: versions, facts, contradictions, staleness downstream.
  if (options.syncKnowledgeOnIngest !== false) {
    store.onSourceChanged((name) => knowledge.syncSource(name).then(() => undefined));
    await knowledge.syncAll();
  }
  return Object.freeze({
    database,
    migrations,
    sensitiveMarking,
    capabilities,
    store,
    runStore: new PgRunStore(database),
    traceSink: new PgTraceSink(database),
    planCache,
    observationStore: new PgObservationStore(database),
    knowledge,
    retrievers: Object.freeze([bm25, fulltext]),
    dense: dense.retriever,
    embedChunks: dense.embedChunks,
    graph: graphRetrieval.graph,
    exact: graphRetrieval.exact,
    fillSearchVectors: () => pendingVectors.run(() => backfillSearchVectors(database)),
    warmCaches: async () => {
      await dense.warmEmbedder();
      return chunkRowCacheOf(database).warm();
    },
    indexDerived: async (derivedOptions: { readonly startUp?: boolean } = {}) => {
      await pendingVectors.run(() => backfillSearchVectors(database, { startUp: derivedOptions.startUp }));
      return graphRetrieval.indexPending();
    },
    close: () => database.close(),
  });
}
