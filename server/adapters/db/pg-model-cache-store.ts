/**
 * The model-context cache's store in Postgres (PGlite or a server): one row per cached response,
 * one counter row per (model, intent class). Expired rows are never served and are deleted by the
 * next save, so the table holds about one TTL's worth of distinct prompts.
 */
import { and, arrayContains, eq, gt, lte, sql } from 'drizzle-orm';
import type { Database } from '../../../db/client';
import { modelCache, modelCacheStats } from '../../../db/schema';
import { MODEL_CACHE_STORE_CONTRACT, type CachedSourceVersion, type ModelCacheEntry, type ModelCacheStorePlugin, type ModelCacheTally } from '../../runtime/contracts/model-cache';

type Row = typeof modelCache.$inferSelect;

function toEntry(row: Row): ModelCacheEntry {
  return Object.freeze({
    key: row.key,
    modelId: row.modelId,
    tier: row.tier,
    sources: Object.freeze((row.sourceVersions as CachedSourceVersion[]).map((source) => Object.freeze({ name: source.name, versionId: source.versionId }))),
    chunkIds: Object.freeze([...row.chunkIds]),
    text: row.responseText,
    usage: Object.freeze({ inputTokens: row.inputTokens, outputTokens: row.outputTokens }),
    costUsd: row.costUsd,
    latencyMs: row.latencyMs,
    createdAt: row.createdAt.toISOString(),
    expiresAt: row.expiresAt.toISOString(),
  });
}

export class PgModelCacheStore implements ModelCacheStorePlugin {
  readonly contract = MODEL_CACHE_STORE_CONTRACT;

  constructor(private readonly database: Database) {}

  async lookup(key: string, now: Date): Promise<ModelCacheEntry | undefined> {
    const [row] = await this.database.db.select().from(modelCache).where(and(eq(modelCache.key, key), gt(modelCache.expiresAt, now)));
    return row ? toEntry(row) : undefined;
  }

  async save(entry: ModelCacheEntry): Promise<void> {
    const values = {
      modelId: entry.modelId,
      tier: entry.tier,
      sourceNames: [...new Set(entry.sources.map((source) => source.name))],
      sourceVersions: entry.sources.map((source) => ({ name: source.name, versionId: source.versionId })),
      chunkIds: [...entry.chunkIds],
      responseText: entry.text,
      inputTokens: entry.usage.inputTokens,
      outputTokens: entry.usage.outputTokens,
      costUsd: entry.costUsd,
      latencyMs: Math.round(entry.latencyMs),
      createdAt: new Date(entry.createdAt),
      expiresAt: new Date(entry.expiresAt),
    };
    await this.database.db.transaction(async (transaction) => {
      await transaction.delete(modelCache).where(lte(modelCache.expiresAt, values.createdAt));
      await transaction.insert(modelCache).values({ key: entry.key, ...values }).onConflictDoUpdate({ target: modelCache.key, set: values });
    });
  }

  async invalidateSource(sourceName: string): Promise<number> {
    // `source_names @> {name}` is what the GIN index answers.
    const dropped = await this.database.db.delete(modelCache).where(arrayContains(modelCache.sourceNames, [sourceName])).returning({ key: modelCache.key });
    return dropped.length;
  }

  async recordLookup(modelId: string, intentClass: string, hit: boolean): Promise<void> {
    const hits = hit ? 1 : 0;
    await this.database.db
      .insert(modelCacheStats)
      .values({ modelId, intentClass, lookups: 1, hits })
      .onConflictDoUpdate({ target: [modelCacheStats.modelId, modelCacheStats.intentClass], set: { lookups: sql`${modelCacheStats.lookups} + 1`, hits: sql`${modelCacheStats.hits} + ${hits}` } });
  }

  async tallies(): Promise<readonly ModelCacheTally[]> {
    const rows = await this.database.db.select().from(modelCacheStats);
    return rows.map((row) => Object.freeze({ modelId: row.modelId, intentClass: row.intentClass, lookups: row.lookups, hits: row.hits }));
  }
}
