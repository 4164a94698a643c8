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

export interface RoutedResult extends ModelResult {
  /** Tiers tried before the one that answered, with why each failed. */
  readonly fallbacks: readonly { readonly tier: string; readonly error: string }[];
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
