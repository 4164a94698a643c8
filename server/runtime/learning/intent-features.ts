/**
 * The bandit's context vector, read off the analysed Intent only (no I/O, no model call), so a
 * decision costs microseconds on the planning path. Every feature is scaled to [0, 1]: LinUCB's
 * confidence width √(xᵀA⁻¹x) assumes ‖x‖ is bounded (Li et al. 2010, §3.1), and unscaled counts
 * would let one feature swamp the others.
 */
import type { Intent, IntentClass } from '../types';

export const INTENT_CLASSES: readonly IntentClass[] = Object.freeze(['exact_id', 'conceptual', 'incident', 'multi_hop', 'high_risk', 'sensitive']);

export const FEATURE_NAMES: readonly string[] = Object.freeze([
  'bias',
  ...INTENT_CLASSES.map((name) => `primary:${name}`),
  'goal_length',
  'identifiers_present',
  'question',
  'entity_count',
  'secondary_classes',
]);

export const FEATURE_DIMENSION = FEATURE_NAMES.length;

/** Goals past this many words read as long; SciFact claims average ~12, multi-hop questions ~16. */
const LONG_GOAL_WORDS = 30;
const MANY_ENTITIES = 5;
const QUESTION_OPENER = /^(who|whom|whose|what|which|when|where|why|how|is|are|was|were|do|does|did|can|could|should|would|will|has|have|had|in which|on which|at which)\b/i;

export function isQuestion(goal: string): boolean {
  const trimmed = goal.trim();
  return trimmed.endsWith('?') || QUESTION_OPENER.test(trimmed);
}

export function intentFeatures(intent: Intent): readonly number[] {
  const words = intent.goal.trim().split(/\s+/).filter(Boolean).length;
  return Object.freeze([
    1,
    ...INTENT_CLASSES.map((name) => (intent.primary === name ? 1 : 0)),
    Math.min(1, words / LONG_GOAL_WORDS),
    intent.identifiers.length > 0 ? 1 : 0,
    isQuestion(intent.goal) ? 1 : 0,
    Math.min(1, intent.entities.length / MANY_ENTITIES),
    Math.min(1, Math.max(0, intent.classes.length - 1) / 2),
  ]);
}
