import type { ModelCapabilities, ModelRequest, ModelResult } from './model';

/** Contract version of the Router plugin. */
export const ROUTER_CONTRACT = 'router/v1' as const;

export interface TierInfo {
  readonly name: string;
  /** Position in the ladder: 0 = cheapest/local. Fallback goes up. */
  readonly rank: number;
  readonly capabilities: ModelCapabilities;
  /** False when the tier cannot be reached (no API key, no endpoint); the planner prunes it with `unavailableReason`. */
  readonly available: boolean;
  readonly unavailableReason?: string;
}

/** How the model-context cache (server/runtime/modelcache) treated one call. */
export interface ModelCallCache {
  /** `hit`: answered from the cache, the model was not called; `miss`: called, and the answer kept. */
  readonly status: 'hit' | 'miss';
  /** On a hit: the tokens and dollars the original call spent, which this one did not. */
  readonly savedTokens?: number;
  readonly savedCostUsd?: number;
}

export interface RoutedResult extends ModelResult {
  /** Tiers tried before the one that answered, with why each failed. */
  readonly fallbacks: readonly { readonly tier: string; readonly error: string }[];
  /** Set when the model-context cache was consulted (config model_cache.enabled). */
  readonly cache?: ModelCallCache;
}

/** Capability-tiered routing with fallback up the tiers on error or timeout. */
export interface RouterPlugin {
  readonly contract: typeof ROUTER_CONTRACT;
  tiers(): readonly TierInfo[];
  countTokens(tier: string, text: string): number;
  /**
   * Calls `tier`; on error or timeout tries the next tiers up (never down, never a non-local tier when
   * `localOnly`), each only once the previous call has ended. A user error or policy refusal, or an
   * abort of `request.signal`, ends the climb: it is thrown as it is.
   */
  complete(tier: string, request: ModelRequest, options?: { readonly localOnly?: boolean }): Promise<RoutedResult>;
}
