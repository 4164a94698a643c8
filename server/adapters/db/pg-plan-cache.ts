import { and, eq, gt, lte, sql } from 'drizzle-orm';
import type { Database } from '../../../db/client';
import { planCache } from '../../../db/schema';
import { PLAN_CACHE_CONTRACT, type PlanCacheEntry, type PlanCacheKey, type PlanCachePlugin } from '../../runtime/contracts/plan-cache';
import { sha256Hex } from './ids';
import { jsonValue } from './json-value';

export interface PgPlanCacheOptions {
  /** Entries older than this miss (and are replaced on the next put); undefined = never expire. */
  readonly ttlSeconds?: number;
  /** Clock, injectable so expiry is testable; the app clock also stamps created_at, so DB clock skew cannot matter. */
  readonly now?: () => Date;
  /** Source names behind a fingerprint (PgKnowledge.namesOf), recorded so invalidateSource finds the entry. */
  readonly sourceNamesOf?: (sourceFingerprint: string) => readonly string[] | undefined;
}

/** Exact-key plan cache in Postgres: caches the planning decision, never the answer. */
export class PgPlanCache implements PlanCachePlugin {
  readonly contract = PLAN_CACHE_CONTRACT;
  private readonly now: () => Date;

  constructor(
    private readonly database: Database,
    private readonly options: PgPlanCacheOptions = {},
  ) {
    this.now = options.now ?? (() => new Date());
  }

  async get(key: PlanCacheKey): Promise<PlanCacheEntry | undefined> {
    const now = this.now();
    const [row] = await this.database.db
      .update(planCache)
      .set({ hits: sql`${planCache.hits} + 1`, lastHitAt: now })
      .where(and(matchesKey(key), this.freshAt(now)))
      .returning();
    if (!row) return undefined;
    return Object.freeze({ key: Object.freeze({ ...key }), planHash: row.planHash, payload: row.payload, createdAt: row.createdAt.toISOString(), hits: row.hits });
  }

  /** `sourceNames` overrides the fingerprint lookup; without either, only TTL and re-put retire the entry. */
  async put(key: PlanCacheKey, planHash: string, payload: unknown, sourceNames?: readonly string[]): Promise<void> {
    const names = [...(sourceNames ?? this.options.sourceNamesOf?.(key.sourceFingerprint) ?? [])];
    const fresh = { planHash, payload: jsonValue(payload), sourceNames: names, hits: 0, createdAt: this.now(), lastHitAt: null };
    await this.database.db
      .insert(planCache)
      .values({ id: idOf(key), intentKey: key.intent, sourceFingerprint: key.sourceFingerprint, policyFingerprint: key.policyFingerprint, constraintEnvelope: key.constraintEnvelope, ...fresh })
      .onConflictDoUpdate({ target: [planCache.intentKey, planCache.sourceFingerprint, planCache.policyFingerprint, planCache.constraintEnvelope], set: fresh });
  }

  async invalidateSource(sourceName: string): Promise<number> {
    const deleted = await this.database.db
      .delete(planCache)
      .where(sql`${sourceName} = any(${planCache.sourceNames})`)
      .returning({ id: planCache.id });
    return deleted.length;
  }

  /** Deletes expired entries; gets already ignore them, this only reclaims the rows. */
  async purgeExpired(): Promise<number> {
    if (this.options.ttlSeconds === undefined) return 0;
    const deleted = await this.database.db.delete(planCache).where(lte(planCache.createdAt, this.cutoff(this.now()))).returning({ id: planCache.id });
    return deleted.length;
  }

  private freshAt(now: Date) {
    return this.options.ttlSeconds === undefined ? undefined : gt(planCache.createdAt, this.cutoff(now));
  }

  private cutoff(now: Date): Date {
    return new Date(now.getTime() - (this.options.ttlSeconds ?? 0) * 1000);
  }
}

const matchesKey = (key: PlanCacheKey) =>
  and(
    eq(planCache.intentKey, key.intent),
    eq(planCache.sourceFingerprint, key.sourceFingerprint),
    eq(planCache.policyFingerprint, key.policyFingerprint),
    eq(planCache.constraintEnvelope, key.constraintEnvelope),
  );

const idOf = (key: PlanCacheKey): string =>
  `plan_${sha256Hex(JSON.stringify([key.intent, key.sourceFingerprint, key.policyFingerprint, key.constraintEnvelope])).slice(0, 32)}`;
