import type { Intent, Principal, RejectedSource, SourceInfo } from '../types';

/** Contract version of the Policy plugin. */
export const POLICY_CONTRACT = 'policy/v1' as const;

export interface PolicyDecision {
  readonly allowedSources: readonly string[];
  readonly deniedSources: readonly RejectedSource[];
  /** Only local model tiers may see the context. */
  readonly localOnly: boolean;
  /** A human approve gate is required before release. */
  readonly requireApproval: boolean;
  readonly requireVerification: boolean;
  /** Why each requirement was set, for EXPLAIN. */
  readonly reasons: readonly string[];
  /** Stable hash of the policy and the principal's permissions (plan-cache key part). */
  readonly fingerprint: string;
}

/** Authorization-style policy over sources, tiers and gates. */
export interface PolicyPlugin {
  readonly contract: typeof POLICY_CONTRACT;
  evaluate(input: { readonly intent: Intent; readonly principal: Principal; readonly sources: readonly SourceInfo[] }): PolicyDecision;
}
