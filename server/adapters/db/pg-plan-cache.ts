/**
 * The plan cache the server wires: the semantic cache (server/runtime/plancache) over Postgres,
 * embedding intents with the offline SIF embedder unless given another one.
 */
import type { Database } from '../../../db/client';
import type { EmbedderPlugin } from '../../runtime/contracts/embedder';
import type { IntentMatchSettings } from '../../runtime/plancache/intent-matcher';
import { SemanticPlanCache } from '../../runtime/plancache/semantic-plan-cache';
import { SifEmbedder } from '../embeddings/sif-embedder';
import { openWordVectors } from '../embeddings/word-vectors';
import { PgPlanCacheStore } from './pg-plan-cache-store';

export interface PgPlanCacheOptions {
  /** Entries older than this miss; undefined = never expire. */
  readonly ttlSeconds?: number;
  /** Clock, injectable so expiry is testable; the app clock also stamps created_at, so DB clock skew cannot matter. */
  readonly now?: () => Date;
  /** Source names behind a fingerprint (PgKnowledge.namesOf), recorded so invalidateSource finds the entry. */
  readonly sourceNamesOf?: (sourceFingerprint: string) => readonly string[] | undefined;
  /**
   * Intent embedder. Default: SIF without corpus statistics, so intent vectors never move when
   * the corpus is refitted (the dense retriever's SIF state changes; a cache key must not).
   */
  readonly embedder?: EmbedderPlugin;
  readonly match?: Partial<IntentMatchSettings>;
  readonly memoryBuckets?: number;
  readonly revalidateMs?: number;
}

export class PgPlanCache extends SemanticPlanCache {
  readonly store: PgPlanCacheStore;

  constructor(database: Database, options: PgPlanCacheOptions = {}) {
    const store = new PgPlanCacheStore(database);
    super({ ...options, store, embedder: options.embedder ?? new SifEmbedder(() => openWordVectors()) });
    this.store = store;
  }

  purgeExpired(): Promise<number> {
    return this.store.purgeExpired(this.now());
  }
}
