import type { PlanningContext } from '../contracts/candidate-generator';
import type { CandidateEstimates, CandidatePlan, ConstraintViolation, Constraints, Intent } from '../types';
import { tiersUsed } from '../costmodel/call-tiers';

/**
 * Hard constraints decide feasibility; PlanScore only ranks what is feasible (reference §6).
 *
 * Numeric limits compare the estimate's point VALUE, not its interval: a v1 interval is a
 * wide prior, and testing the p95 would make almost every plan infeasible under a tight
 * budget. The interval is reported next to the value in EXPLAIN, so a caller can see when a
 * plan is feasible only on its typical figure.
 *
 * require_citations: the reasoner is always asked for citations when the caller requires
 * them, but only a citation verifier guarantees they exist and point at retrieved chunks,
 * so a plan without a citation-checking verifier ('none', or a method not named citation*)
 * violates it.
 *
 * sensitive → local: a non-local tier violates it when the policy says local-only, the
 * intent is sensitive, or the plan's scope reaches a source marked sensitive.
 */

const number = (value: number): string => (Number.isInteger(value) ? String(value) : String(Number(value.toPrecision(3))));

function limit(name: string, cap: number, estimated: number, unit: string): ConstraintViolation | undefined {
  if (!(estimated > cap)) return undefined;
  return {
    constraint: name,
    limit: cap,
    estimated,
    message: `${name}: estimated ${number(estimated)}${unit} exceeds the limit of ${number(cap)}${unit} (point estimate compared)`,
  };
}

/** Citation-checking verification methods ("citation", "citation_grounded", …). */
export const yieldsCheckedCitations = (verification: string): boolean => verification.startsWith('citation');

interface ContextFacts {
  readonly localByTier: ReadonlyMap<string, boolean>;
  /** Kinds of the readable sources marked sensitive. */
  readonly sensitiveKinds: ReadonlySet<string>;
}

/** Per-context facts, memoised on the immutable context so a thousand checks do not rescan it. */
const factsByContext = new WeakMap<PlanningContext, ContextFacts>();

let lastContext: PlanningContext | undefined;
let lastFacts: ContextFacts | undefined;

function factsOf(context: PlanningContext): ContextFacts {
  // One-entry front cache: a goal's ~1,000 candidates are checked against the same context in a row.
  if (context === lastContext && lastFacts) return lastFacts;
  let facts = factsByContext.get(context);
  if (!facts) {
    const allowed = new Set(context.policy.allowedSources);
    facts = {
      localByTier: new Map(context.tiers.map((tier) => [tier.name, tier.capabilities.local])),
      sensitiveKinds: new Set(context.sources.filter((source) => source.sensitive && allowed.has(source.name)).map((source) => source.kind)),
    };
    factsByContext.set(context, facts);
  }
  lastContext = context;
  lastFacts = facts;
  return facts;
}

export function touchesSensitiveSource(candidate: CandidatePlan, context: PlanningContext): boolean {
  const kinds = factsOf(context).sensitiveKinds;
  if (kinds.size === 0) return false;
  if (candidate.sourceKinds === 'all') return true;
  return candidate.sourceKinds.some((kind) => kinds.has(kind));
}

/** The first tier the plan calls that is not local; the common one-tier plan without building a tier list. */
function remoteTierOf(candidate: CandidatePlan, localByTier: ReadonlyMap<string, boolean>): string | undefined {
  if (!candidate.solverTiers) return localByTier.get(candidate.modelTier) === false ? candidate.modelTier : undefined;
  return tiersUsed(candidate).find((tier) => localByTier.get(tier) === false);
}

const NO_VIOLATIONS: readonly ConstraintViolation[] = Object.freeze([]);

export function checkConstraints(
  estimates: CandidateEstimates,
  candidate: CandidatePlan,
  constraints: Constraints,
  context: PlanningContext,
  intent?: Intent,
): readonly ConstraintViolation[] {
  return checkConstraintValues(estimates.costUsd.value, estimates.latencySeconds.value, estimates.tokens.value, candidate, constraints, context, intent);
}

/** checkConstraints on the three point estimates a limit reads (the planner's hot loop has no estimate objects). */
export function checkConstraintValues(
  costUsd: number,
  latencySeconds: number,
  tokens: number,
  candidate: CandidatePlan,
  constraints: Constraints,
  context: PlanningContext,
  intent?: Intent,
): readonly ConstraintViolation[] {
  // Allocated on the first violation only: most candidates have none, and this runs per candidate.
  let violations: ConstraintViolation[] | undefined;
  let violation: ConstraintViolation | undefined;
  if (constraints.max_cost_usd !== undefined && (violation = limit('max_cost_usd', constraints.max_cost_usd, costUsd, ' USD'))) (violations ??= []).push(violation);
  if (constraints.max_latency_seconds !== undefined && (violation = limit('max_latency_seconds', constraints.max_latency_seconds, latencySeconds, ' s'))) (violations ??= []).push(violation);
  if (constraints.max_tokens !== undefined && (violation = limit('max_tokens', constraints.max_tokens, tokens, ' tokens'))) (violations ??= []).push(violation);
  if (constraints.require_verification && candidate.verification === 'none') {
    (violations ??= []).push({ constraint: 'require_verification', limit: true, estimated: 'none', message: 'require_verification: the plan has no verification step' });
  }
  if (constraints.require_citations && !yieldsCheckedCitations(candidate.verification)) {
    (violations ??= []).push({
      constraint: 'require_citations',
      limit: true,
      estimated: candidate.verification,
      message: `require_citations: verification "${candidate.verification}" does not check citations`,
    });
  }
  // Any call of the plan on a remote tier sends the context off the machine (a debate's solvers too).
  const remoteTier = remoteTierOf(candidate, factsOf(context).localByTier);
  if (remoteTier !== undefined) {
    const why = context.policy.localOnly
      ? 'policy is local-only'
      : intent?.classes.includes('sensitive')
        ? 'the goal is sensitive'
        : touchesSensitiveSource(candidate, context)
          ? 'the scope includes a sensitive source'
          : undefined;
    if (why) {
      const tier = remoteTier;
      (violations ??= []).push({ constraint: 'sensitive_local_only', limit: 'local', estimated: tier, message: `sensitive_local_only: ${why}, but tier ${tier} is not local` });
    }
  }
  return violations ?? NO_VIOLATIONS;
}
