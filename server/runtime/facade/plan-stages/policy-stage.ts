/**
 * Stage `policy`: what the principal may read of the selected sources, what the policy requires
 * (local tiers, approval, verification), and the request's constraints with the policy's
 * verification default filled in.
 */
import type { PolicyDecision, PolicyPlugin } from '../../contracts/policy';
import type { Constraints, Intent, RejectedSource, RunRequest, SourceInfo } from '../../types';
import type { SourceSelection } from './source-selection-stage';

export interface PolicyOutcome {
  readonly policy: PolicyDecision;
  /** Selected and permitted: what the plan may draw on. */
  readonly allowed: readonly SourceInfo[];
  /** Unselected, stale and denied sources, with the reason for each. */
  readonly rejected: readonly RejectedSource[];
  readonly constraints: Constraints;
}

export function policyStage(policy: PolicyPlugin, request: RunRequest, intent: Intent, selection: SourceSelection): PolicyOutcome {
  const decision = policy.evaluate({ intent, principal: request.principal!, sources: selection.selected });
  const permitted = new Set(decision.allowedSources);
  const constraints = { ...request.constraints, require_verification: request.constraints?.require_verification ?? (decision.requireVerification || undefined) };
  return {
    policy: decision,
    allowed: selection.selected.filter((source) => permitted.has(source.name)),
    rejected: [...selection.rejected, ...decision.deniedSources],
    constraints,
  };
}
