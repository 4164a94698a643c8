import { createHash } from 'node:crypto';
import type { CandidatePlan, Constraints, Intent } from '../types';
import { canonicalJson } from './serialize-graph';

/** The inputs that determine a plan (principle #7, deterministic replay). */
export interface PlanIdentity {
  readonly intent: Pick<Intent, 'normalized' | 'primary' | 'classes'>;
  readonly choice: CandidatePlan;
  readonly sourceFingerprint: string;
  readonly policyFingerprint: string;
  readonly constraints: Constraints;
  /** Version of the planner code: a planner change that alters graphs must not reuse old plans. */
  readonly plannerVersion: string;
}

export function sha256Hex(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** Stable hash over (normalized intent, plan choices, source versions, policy, constraints). */
export function planHash(identity: PlanIdentity): string {
  return sha256Hex(
    canonicalJson({
      intent: { normalized: identity.intent.normalized, primary: identity.intent.primary, classes: identity.intent.classes },
      choice: identity.choice,
      sources: identity.sourceFingerprint,
      policy: identity.policyFingerprint,
      constraints: identity.constraints,
      planner: identity.plannerVersion,
    }),
  ).slice(0, 32);
}
