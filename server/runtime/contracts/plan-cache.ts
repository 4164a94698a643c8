/** Contract version of the PlanCache plugin. */
export const PLAN_CACHE_CONTRACT = 'plan-cache/v1' as const;

/** The exact key parts; two requests share a plan only when all four match. */
export interface PlanCacheKey {
  readonly intent: string;
  readonly sourceFingerprint: string;
  readonly policyFingerprint: string;
  readonly constraintEnvelope: string;
}

export interface PlanCacheEntry {
  readonly key: PlanCacheKey;
  readonly planHash: string;
  /** The serialized planning result (candidate choice, estimates, graph JSON). */
  readonly payload: unknown;
  readonly createdAt: string;
  readonly hits: number;
}

/** Caches the planning decision, not the answer. */
export interface PlanCachePlugin {
  readonly contract: typeof PLAN_CACHE_CONTRACT;
  get(key: PlanCacheKey): Promise<PlanCacheEntry | undefined>;
  put(key: PlanCacheKey, planHash: string, payload: unknown): Promise<void>;
  invalidateSource(sourceName: string): Promise<number>;
}
