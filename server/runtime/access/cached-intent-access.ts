/**
 * The plan cache shares plans between principals with the same permissions, not their questions
 * (issue 12, finding 3): a semantic hit or a near miss names the goal the stored plan was made
 * for, which may be another user's. That goal is shown only to the user who asked it; anyone else
 * learns that a similar plan was reused, and how similar, but not what was asked.
 */
import type { PlanCacheNearMiss } from '../contracts/plan-cache';
import type { ExplainResult } from '../explain/explain-types';
import { sha256Hex } from '../ir/plan-hash';

/** Stands in for a goal the caller did not ask. */
export const WITHHELD_INTENT = "(another user's goal)";

/** Stored with a cached plan: whose goal it was, as a digest (the cache holds no user names). */
export const askerDigestOf = (user: string): string => sha256Hex(`plan-cache-asker\u0000${user}`).slice(0, 32);

/** The intent a hit may name to this user: their own earlier goal, the same text, or the placeholder. */
export function servedIntentFor(user: string, normalized: string, cached: { readonly key: { readonly intent: string }; readonly payload: unknown }): string {
  const asker = (cached.payload as Partial<ExplainResult> | undefined)?.planCache?.askerDigest;
  return cached.key.intent === normalized || asker === askerDigestOf(user) ? cached.key.intent : WITHHELD_INTENT;
}

/** A near miss names its nearest stored intent only when that is this goal's own text (the store keeps no asker for it). */
export function nearMissFor(normalized: string, nearMiss: PlanCacheNearMiss): PlanCacheNearMiss {
  return nearMiss.intent === normalized ? nearMiss : { ...nearMiss, intent: WITHHELD_INTENT };
}
