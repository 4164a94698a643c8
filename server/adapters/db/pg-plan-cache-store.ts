/**
 * Postgres persistence of the semantic plan cache. With pgvector the nearest stored intents are
 * found in SQL (`<=>`, cosine distance); on a server without `vector` (plain PostgreSQL 15) the
 * candidates are filtered by the exact key parts in SQL and ranked by cosine in process.
 */
import { sql } from 'drizzle-orm';
import type { Database } from '../../../db/client';
import type { PlanCacheCounts, PlanCacheKey, PlanCacheRecord, PlanCacheStats, PlanCacheStorePlugin } from '../../runtime/contracts/plan-cache';
import { toVectorLiteral } from '../embeddings/embedding-table';
import { jsonValue } from './json-value';

/** Retired plans kept for near-miss diagnostics; older ones are pruned on each retirement. */
const RETIRED_KEPT = 5000;
/** Without pgvector, near-miss diagnostics rank this many recent records in process. */
const IN_PROCESS_NEAREST_SCAN = 400;

interface Row extends Record<string, unknown> {
  id: string;
  exact_key: string;
  embedder_id: string;
  key: PlanCacheKey;
  intent_vector: number[];
  source_names: string[];
  plan_hash: string;
  payload?: unknown;
  created_at: Date | string;
  expires_at?: Date | string | null;
  hits?: number;
  retired_at?: Date | string | null;
  retired_reason?: string | null;
}

/** The key as the contract spells it, rebuilt from its columns. */
const KEY_OBJECT = `json_build_object('intent', intent_key, 'intentShape', intent_shape, 'sourceFingerprint', source_fingerprint, 'policyFingerprint', policy_fingerprint,
    'permissionFingerprint', permission_fingerprint, 'constraintEnvelope', constraint_envelope, 'plannerVersion', planner_version,
    'capabilityFingerprint', capability_fingerprint) as key`;
const LIVE_COLUMNS = sql.raw(`id, exact_key, embedder_id, intent_vector, source_names, plan_hash, payload, created_at, expires_at, hits, ${KEY_OBJECT}`);
/**
 * Near-miss diagnostics read the key, vector and dates, never the plan: a payload is the whole
 * EXPLAIN (~400 KB on the demo corpus, mostly its rejected candidates), and reading eight of them
 * took most of a miss's time (bench:plan-overhead, issue 16 point 5).
 */
const NEAREST_LIVE_COLUMNS = sql.raw(`id, exact_key, embedder_id, intent_vector, source_names, plan_hash, created_at, expires_at, hits, ${KEY_OBJECT}`);

export class PgPlanCacheStore implements PlanCacheStorePlugin {
  private detected?: boolean;
  private detecting?: Promise<boolean>;

  constructor(private readonly database: Database) {}

  /** Known after the first query (the column check is lazy so construction stays synchronous). */
  get vectorSearch(): boolean {
    return this.detected === true;
  }

  async candidates(exactKey: string, vector: Float32Array, limit: number): Promise<readonly PlanCacheRecord[]> {
    const ranked = (await this.hasVector())
      ? sql`select id, intent_embedding <=> ${toVectorLiteral(vector)}::vector as rank from plan_cache where exact_key = ${exactKey} order by rank limit ${limit}`
      : sql`select id, -extract(epoch from created_at) as rank from plan_cache where exact_key = ${exactKey} order by rank limit ${limit}`;
    const rows = await this.database.query<Row>(sql`select ${LIVE_COLUMNS} from plan_cache join (${ranked}) nearest using (id) order by nearest.rank`);
    return rows.map(recordOf);
  }

  /** The nearest ids are ranked first and only those rows' columns read (no payload: see NEAREST_LIVE_COLUMNS). */
  async nearest(embedderId: string, vector: Float32Array, limit: number): Promise<readonly PlanCacheRecord[]> {
    const retiredColumns = sql.raw('id, exact_key, embedder_id, intent_vector, source_names, plan_hash, created_at, key, retired_at, retired_reason');
    if (await this.hasVector()) {
      const literal = toVectorLiteral(vector);
      const live = await this.database.query<Row>(sql`select ${NEAREST_LIVE_COLUMNS} from plan_cache join (select id, intent_embedding <=> ${literal}::vector as distance from plan_cache where embedder_id = ${embedderId} order by distance limit ${limit}) nearest using (id) order by nearest.distance`);
      // A plan retired twice has two rows with one id: the row's own ctid picks exactly the ranked ones.
      const retired = await this.database.query<Row>(sql`select ${retiredColumns} from plan_cache_retired join (select ctid as row_id, intent_embedding <=> ${literal}::vector as distance from plan_cache_retired where embedder_id = ${embedderId} order by distance limit ${limit}) nearest on plan_cache_retired.ctid = nearest.row_id order by nearest.distance`);
      return [...live, ...retired].map(recordOf);
    }
    const live = await this.database.query<Row>(sql`select ${NEAREST_LIVE_COLUMNS} from plan_cache where embedder_id = ${embedderId} order by created_at desc limit ${IN_PROCESS_NEAREST_SCAN}`);
    const retired = await this.database.query<Row>(sql`select ${retiredColumns} from plan_cache_retired where embedder_id = ${embedderId} order by retired_at desc limit ${IN_PROCESS_NEAREST_SCAN}`);
    return [...live, ...retired].map(recordOf);
  }

  async upsert(record: PlanCacheRecord): Promise<void> {
    const { key } = record;
    const vector = `{${Array.from(record.vector).join(',')}}`;
    const embedding = (await this.hasVector()) ? sql`${toVectorLiteral(record.vector)}::vector` : sql`null`;
    const embeddingColumn = (await this.hasVector()) ? sql.raw(', intent_embedding') : sql.raw('');
    const embeddingValue = (await this.hasVector()) ? sql`, ${embedding}` : sql.raw('');
    const embeddingUpdate = (await this.hasVector()) ? sql.raw(', intent_embedding = excluded.intent_embedding') : sql.raw('');
    await this.database.query(sql`
      insert into plan_cache (id, exact_key, intent_key, intent_shape, source_fingerprint, policy_fingerprint, permission_fingerprint, constraint_envelope,
        planner_version, capability_fingerprint, embedder_id, intent_vector, source_names, plan_hash, payload, hits, created_at, expires_at, last_hit_at${embeddingColumn})
      values (${record.id}, ${record.exactKey}, ${key.intent}, ${key.intentShape}, ${key.sourceFingerprint}, ${key.policyFingerprint}, ${key.permissionFingerprint},
        ${key.constraintEnvelope}, ${key.plannerVersion}, ${key.capabilityFingerprint}, ${record.embedderId}, ${vector}::real[], ${`{${record.sourceNames.map(quoteArrayItem).join(',')}}`}::text[],
        ${record.planHash}, ${record.payloadJson ?? JSON.stringify(jsonValue(record.payload))}::jsonb, 0, ${record.createdAt}, ${record.expiresAt ?? null}, null${embeddingValue})
      on conflict (exact_key, intent_key) do update set id = excluded.id, source_names = excluded.source_names, plan_hash = excluded.plan_hash, payload = excluded.payload,
        intent_vector = excluded.intent_vector, hits = 0, created_at = excluded.created_at, expires_at = excluded.expires_at, last_hit_at = null${embeddingUpdate}`);
  }

  async addHits(hits: ReadonlyMap<string, { readonly count: number; readonly at: Date }>): Promise<void> {
    for (const [id, { count, at }] of hits) {
      await this.database.query(sql`update plan_cache set hits = hits + ${count}, last_hit_at = ${at} where id = ${id}`);
    }
  }

  async retire(scope: { readonly sourceName?: string; readonly all?: boolean }, reason: string, at: Date): Promise<number> {
    if (!scope.all && scope.sourceName === undefined) return 0;
    const where = scope.all ? sql`true` : sql`${scope.sourceName} = any(source_names)`;
    const embedding = (await this.hasVector()) ? sql.raw(', intent_embedding') : sql.raw('');
    const moved = await this.database.query<{ id: string }>(sql`
      with moved as (delete from plan_cache where ${where} returning *),
      kept as (
        insert into plan_cache_retired (id, exact_key, embedder_id, intent_key, key, intent_vector, source_names, plan_hash, created_at, retired_at, retired_reason${embedding})
        select id, exact_key, embedder_id, intent_key,
          jsonb_build_object('intent', intent_key, 'intentShape', intent_shape, 'sourceFingerprint', source_fingerprint, 'policyFingerprint', policy_fingerprint,
            'permissionFingerprint', permission_fingerprint, 'constraintEnvelope', constraint_envelope, 'plannerVersion', planner_version, 'capabilityFingerprint', capability_fingerprint),
          intent_vector, source_names, plan_hash, created_at, ${at}, ${reason}${embedding}
        from moved returning id)
      select id from kept`);
    await this.database.query(sql`delete from plan_cache_retired where retired_at < coalesce((select retired_at from plan_cache_retired order by retired_at desc offset ${RETIRED_KEPT} limit 1), '-infinity')`);
    return moved.length;
  }

  async generation(): Promise<string> {
    const [row] = await this.database.query<{ generation: string }>(sql`select count(*)::text || ':' || coalesce(max(retired_at)::text, '') as generation from plan_cache_retired`);
    return row.generation;
  }

  /**
   * Row count and newest created_at: an insert or delete (retire, purge) by any process moves one of
   * them; an upsert over an existing row changes no key, and needs not move it.
   */
  async liveVersion(): Promise<string> {
    const [row] = await this.database.query<{ version: string }>(sql`select count(*)::text || ':' || coalesce(max(created_at)::text, '') as version from plan_cache`);
    return row.version;
  }

  async liveExactKeys(embedderId: string): Promise<readonly string[]> {
    const rows = await this.database.query<{ exact_key: string }>(sql`select distinct exact_key from plan_cache where embedder_id = ${embedderId}`);
    return rows.map((row) => row.exact_key);
  }

  async addCounts(bucketStart: Date, counts: PlanCacheCounts): Promise<void> {
    await this.database.query(sql`
      insert into plan_cache_stats (bucket_start, lookups, hits, near_misses, misses, by_reason)
      values (${bucketStart}, ${counts.lookups}, ${counts.hits}, ${counts.nearMisses}, ${counts.misses}, ${JSON.stringify(counts.byReason)}::jsonb)
      on conflict (bucket_start) do update set lookups = plan_cache_stats.lookups + excluded.lookups, hits = plan_cache_stats.hits + excluded.hits,
        near_misses = plan_cache_stats.near_misses + excluded.near_misses, misses = plan_cache_stats.misses + excluded.misses,
        by_reason = (select coalesce(jsonb_object_agg(reason, total), '{}'::jsonb) from (
          select reason, sum(value::int) as total from (
            select * from jsonb_each_text(plan_cache_stats.by_reason) union all select * from jsonb_each_text(excluded.by_reason)
          ) as parts(reason, value) group by reason) as summed)`);
  }

  async counts(since: Date, until: Date): Promise<readonly (PlanCacheCounts & { readonly start: Date })[]> {
    const rows = await this.database.query<{ bucket_start: Date | string; lookups: number; hits: number; near_misses: number; misses: number; by_reason: Record<string, number> }>(
      sql`select bucket_start, lookups, hits, near_misses, misses, by_reason from plan_cache_stats where bucket_start >= ${since} and bucket_start < ${until} order by bucket_start`,
    );
    return rows.map((row) => ({ start: new Date(row.bucket_start), lookups: row.lookups, hits: row.hits, nearMisses: row.near_misses, misses: row.misses, byReason: row.by_reason }));
  }

  async entryCounts(now: Date): Promise<PlanCacheStats['entries']> {
    const [row] = await this.database.query<{ live: number; expired: number; retired: number }>(sql`
      select (select count(*) from plan_cache where expires_at is null or expires_at > ${now})::int as live,
        (select count(*) from plan_cache where expires_at <= ${now})::int as expired,
        (select count(*) from plan_cache_retired)::int as retired`);
    return row;
  }

  /** Deletes expired plans; lookups already skip them, this only reclaims the rows. */
  async purgeExpired(now: Date): Promise<number> {
    return (await this.database.query<{ id: string }>(sql`delete from plan_cache where expires_at <= ${now} returning id`)).length;
  }

  private hasVector(): Promise<boolean> {
    if (this.detected !== undefined) return Promise.resolve(this.detected);
    this.detecting ??= (async () => {
      const [row] = await this.database.query<{ present: boolean }>(
        sql`select exists (select 1 from information_schema.columns where table_name = 'plan_cache' and column_name = 'intent_embedding') as present`,
      );
      return (this.detected = row.present === true);
    })();
    this.detecting.catch(() => (this.detecting = undefined));
    return this.detecting;
  }
}

function recordOf(row: Row): PlanCacheRecord {
  return Object.freeze({
    id: row.id,
    exactKey: row.exact_key,
    key: Object.freeze(row.key),
    embedderId: row.embedder_id,
    vector: Float32Array.from(row.intent_vector),
    sourceNames: Object.freeze(row.source_names),
    planHash: row.plan_hash,
    payload: row.payload ?? null,
    createdAt: new Date(row.created_at),
    ...(row.expires_at ? { expiresAt: new Date(row.expires_at) } : {}),
    hits: row.hits ?? 0,
    ...(row.retired_at ? { retiredAt: new Date(row.retired_at), retiredReason: row.retired_reason ?? '' } : {}),
  });
}

const quoteArrayItem = (item: string): string => `"${item.replace(/["\\]/g, (character) => `\\${character}`)}"`;
