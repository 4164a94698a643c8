import type { ModelCapabilities, ModelRequest, ModelResult } from './model';
import type { TokenUsage } from '../types';

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

/**
 * Tokens a chat API bills per message beyond its text (role and separators: OpenAI's cookbook
 * counts 3 per message plus 3 to prime the reply): added to a call's prompt when a run budget
 * prices it (CallToAdmit.promptTokens), so the worst case is not under the invoice.
 */
export const MESSAGE_OVERHEAD_TOKENS = 4;

/** One tier's call as it is about to start: what its worst case can be priced from. */
export interface CallToAdmit {
  readonly tier: string;
  /** The tier's prices (USD per million input and output tokens). */
  readonly prices: Pick<ModelCapabilities, 'inputUsdPerMillion' | 'outputUsdPerMillion'>;
  /** The request's prompt in the tier's own tokens (known before the call). */
  readonly promptTokens: number;
  /** The most the call may answer with (the request's cap): the unknown half of its cost. */
  readonly maxOutputTokens: number;
}

/**
 * How an admitted call ended: answered (its usage and cost), rejected by the provider (an error
 * status: nothing billed), or abandoned (timed out or aborted: the provider may have billed it).
 */
export type CallEnded = { readonly usage: TokenUsage; readonly costUsd: number } | { readonly failed: 'rejected' | 'abandoned' };

/**
 * Asked before each tier's call starts, the first and every fallback: throws to refuse it (a run
 * budget that the call's worst case would cross), else returns what to tell once the call ended.
 */
export type CallAdmission = (call: CallToAdmit) => (ended: CallEnded) => void;

/** Capability-tiered routing with fallback up the tiers on error or timeout. */
export interface RouterPlugin {
  readonly contract: typeof ROUTER_CONTRACT;
  tiers(): readonly TierInfo[];
  countTokens(tier: string, text: string): number;
  /**
   * Calls `tier`; on error or timeout tries the next tiers up (never down, never a non-local tier when
   * `localOnly`), each only once the previous call has ended. A user error or policy refusal, or an
   * abort of `request.signal`, ends the climb: it is thrown as it is. `admit`, when given, is asked
   * before every tier's call; what it throws ends the climb too, before that call starts.
   */
  complete(tier: string, request: ModelRequest, options?: { readonly localOnly?: boolean; readonly admit?: CallAdmission }): Promise<RoutedResult>;
}
