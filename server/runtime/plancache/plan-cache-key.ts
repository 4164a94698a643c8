/**
 * The plan-cache key, built from exactly what the planner reads. Every part but `intent` is
 * matched exactly; `intent` is matched by meaning (intent-matcher.ts).
 */
import type { PlanCacheKey, PlanCacheKeyPart } from '../contracts/plan-cache';
import type { PolicyDecision } from '../contracts/policy';
import { sha256Hex } from '../ir/plan-hash';
import { canonicalJson } from '../ir/serialize-graph';
import { searchWindows } from '../text/event-anchor';
import type { Intent, Principal } from '../types';

export interface PlanCacheKeyInput {
  readonly intent: Intent;
  readonly principal: Principal;
  readonly policy: PolicyDecision;
  /** Sources the policy let this principal read (after request selection). */
  readonly allowedSources: readonly string[];
  readonly sourceFingerprint: string;
  /** Constraints, weights and budgets as the planner will see them (canonicalized here). */
  readonly envelope: unknown;
  readonly plannerVersion: string;
  readonly capabilityFingerprint: string;
}

const digest = (value: unknown): string => sha256Hex(canonicalJson(value)).slice(0, 32);
const sortedUnique = (values: readonly string[]): string[] => [...new Set(values.map((value) => value.toLowerCase()))].sort();

/**
 * The intent shape is the planner's whole view of the intent (its classes: rule pruning and cost
 * priors read nothing else) plus what the goal is about. Entities stay exact because word
 * embeddings place "checkout-api" and "payments-service" close (SIF cosine 0.87 on the same
 * sentence, measured, above the 0.86 of a true paraphrase), so meaning alone cannot keep them apart.
 */
/**
 * A secondary "conceptual" class changes no plan: its rule applies only to a primary class, its
 * risk prior (0.2) is the lowest of all so the max over classes ignores it, and neither policy nor
 * graph building reads it. Paraphrases differ in it ("Explain the … failure" adds it), so keeping
 * it in the key only turned correct hits into misses (bench:plancache).
 */
const affectsPlanning = (intentClass: string, index: number): boolean => index === 0 || intentClass !== 'conceptual';

export function intentShapeOf(intent: Intent): string {
  // The instants the goal names (or the day of the event a reading is anchored to) set the time-window
  // hop's windows (graph-builder.ts): "at 09:00" and "at 10:00" read alike by meaning, but a plan for
  // one searches the other's hour.
  const moments = searchWindows(intent.goal);
  return canonicalJson({
    primary: intent.primary,
    classes: intent.classes.filter(affectsPlanning).sort(),
    entities: sortedUnique(intent.entities),
    identifiers: sortedUnique(intent.identifiers.map((identifier) => identifier.value)),
    ...(moments.length > 0 ? { moments } : {}),
  });
}

export function buildPlanCacheKey(input: PlanCacheKeyInput): PlanCacheKey {
  return Object.freeze({
    intent: input.intent.normalized,
    intentShape: intentShapeOf(input.intent),
    sourceFingerprint: input.sourceFingerprint,
    policyFingerprint: input.policy.fingerprint,
    permissionFingerprint: digest({ roles: sortedUnique(input.principal.roles), allowed: [...input.allowedSources].sort() }),
    constraintEnvelope: canonicalJson(input.envelope),
    plannerVersion: input.plannerVersion,
    capabilityFingerprint: input.capabilityFingerprint,
  });
}

/**
 * Exact parts in the order a near miss reports them, causes before effects: other permissions
 * change the readable sources (and the policy decision) too, so they are named first.
 */
export const EXACT_PARTS: readonly (readonly [PlanCacheKeyPart, keyof PlanCacheKey])[] = Object.freeze([
  ['permissions', 'permissionFingerprint'],
  ['policy', 'policyFingerprint'],
  ['sources', 'sourceFingerprint'],
  ['constraints', 'constraintEnvelope'],
  ['capabilities', 'capabilityFingerprint'],
  ['planner', 'plannerVersion'],
  ['intent_shape', 'intentShape'],
] as const);

/** Hash of every exact part plus the embedder: vectors of different embedders are never compared. */
export function exactKeyOf(key: PlanCacheKey, embedderId: string): string {
  return digest([embedderId, ...EXACT_PARTS.map(([, field]) => key[field])]);
}

/** The exact parts on which two keys differ, in EXACT_PARTS order. */
export function differingParts(left: PlanCacheKey, right: PlanCacheKey): PlanCacheKeyPart[] {
  return EXACT_PARTS.filter(([, field]) => left[field] !== right[field]).map(([part]) => part);
}
