import { CANDIDATE_GENERATOR_CONTRACT, type CandidateGeneratorPlugin, type CandidateSet, type PlanningContext } from '../contracts/candidate-generator';
import type { TierInfo } from '../contracts/router';
import type { CandidatePlan, CompressionMethod, ExecutionShape, Intent, ReasoningStrategy, RejectedCandidate, VerificationMethod } from '../types';
import { compressionMethods, plannableSources, retrievalSets, scopes, verificationMethods, type RetrievalSet, type Scope } from './candidate-dimensions';
import { applicableRules, methodFamily, recallPriorFor, type IntentRule } from './rules';
import { generationKey } from './generation-key';
import { LruMap } from '../plancache/lru-map';

/**
 * Enumerates retrieval × scope × tier × verification × reasoning (a debate also × its solvers'
 * tiers) × shape × compression and
 * cuts with the rule table. Verdicts are computed once per dimension value; the product
 * loop only picks the first failing verdict, so a cut family of N plans costs one counter
 * increment, not N objects (the same reason PostgreSQL rejects paths before building them).
 */

interface Cut {
  readonly stage: RejectedCandidate['stage'];
  readonly rule: string;
  readonly reason: string;
  readonly subject: string;
}

const SHAPES: readonly ExecutionShape[] = ['sequential', 'parallel'];

function retrievalCut(set: RetrievalSet, rules: readonly IntentRule[], context: PlanningContext, intent: Intent): Cut | undefined {
  for (const retriever of set.retrievers) {
    if (!retriever.available) {
      const reason = `${retriever.method} unavailable: ${retriever.unavailableReason ?? 'the retriever reported itself unavailable without a reason'}`;
      return { stage: 'capability', rule: 'capability.retriever', reason, subject: `using ${retriever.method}` };
    }
  }
  const offMachine = set.retrievers.find((retriever) => retriever.sendsPassagesOffMachine);
  if (offMachine && context.policy.localOnly) {
    const reason = `policy allows only local models${context.policy.reasons.length ? `: ${context.policy.reasons.join('; ')}` : ''}; ${offMachine.method} sends passages to a remote model`;
    return { stage: 'policy', rule: 'policy.local_only', reason, subject: `using ${offMachine.method}` };
  }
  const localRule = offMachine ? rules.find((rule) => rule.localOnly) : undefined;
  if (offMachine && localRule) {
    return { stage: 'rule', rule: `intent.${localRule.intent}.local_only`, reason: `${localRule.why}; ${offMachine.method} sends passages to a remote model`, subject: `using ${offMachine.method}` };
  }
  const available = context.retrievers.filter((retriever) => retriever.available);
  for (const rule of rules) {
    const retrieval = rule.retrieval;
    if (!retrieval) continue;
    if (retrieval.requireAnyOf) {
      const group = retrieval.requireAnyOf.find((families) => available.some((retriever) => families.includes(methodFamily(retriever))));
      if (group && !set.families.some((family) => group.includes(family))) {
        const methods = available.filter((retriever) => group.includes(methodFamily(retriever))).map((retriever) => retriever.method);
        const reason = `${rule.intent} goals need a ${group.join(' or ')} method (available: ${methods.join(', ')}): ${rule.why}`;
        return { stage: 'rule', rule: `intent.${rule.intent}.retrieval`, reason, subject: `retrieving ${set.key} only` };
      }
    }
    if (retrieval.cutPure && retrieval.preferred && set.families.every((family) => retrieval.cutPure!.includes(family))) {
      // Only a preferred method expected to do at least as well justifies the cut: word-vector
      // SIF embeddings score 0.32 nDCG@10 on SciFact where BM25 scores 0.70 (bench/retrieval/RESULTS.md),
      // and cutting the lexical plans for them made the planner worse than BM25 alone.
      const best = Math.max(...set.retrievers.map((retriever) => recallPriorFor(retriever, intent.primary, 0)));
      const preferred = available.filter((retriever) => retrieval.preferred!.includes(methodFamily(retriever)) && recallPriorFor(retriever, intent.primary, 0) >= best);
      if (preferred.length > 0) {
        const reason = `${rule.intent} goals prefer ${retrieval.preferred.join('/')} retrieval and ${preferred.map((retriever) => retriever.method).join(', ')} is available: ${rule.why}`;
        return { stage: 'rule', rule: `intent.${rule.intent}.retrieval`, reason, subject: `retrieving ${set.key} only` };
      }
    }
  }
  return undefined;
}

function scopeCut(set: RetrievalSet, scope: Scope, rules: readonly IntentRule[], presentKinds: ReadonlySet<string>): Cut | undefined {
  if (scope.kinds === 'all') return undefined;
  const kinds = scope.kinds;
  for (const retriever of set.retrievers) {
    const fit = retriever.sourceKinds;
    if (fit && !fit.some((kind) => kinds.includes(kind))) {
      const reason = `${retriever.method} searches only ${fit.join(', ')}; scope ${scope.key} has none of them`;
      return { stage: 'capability', rule: 'capability.source_kinds', reason, subject: `using ${retriever.method} with scope ${scope.key}` };
    }
  }
  for (const rule of rules) {
    if (!rule.scope) continue;
    const missing = rule.scope.required.filter((kind) => presentKinds.has(kind) && !kinds.includes(kind));
    if (missing.length > 0) {
      const reason = `${rule.why}; scope ${scope.key} lacks ${missing.join(', ')}`;
      return { stage: 'rule', rule: `intent.${rule.intent}.scope`, reason, subject: `with scope ${scope.key}` };
    }
  }
  return undefined;
}

function tierCut(tier: TierInfo, rules: readonly IntentRule[], context: PlanningContext): Cut | undefined {
  if (!tier.available) {
    const reason = tier.unavailableReason ?? `tier ${tier.name} reported itself unavailable without a reason`;
    return { stage: 'capability', rule: 'capability.tier', reason, subject: `on tier ${tier.name}` };
  }
  if (tier.capabilities.local) return undefined;
  if (context.policy.localOnly) {
    const reason = `policy allows only local tiers${context.policy.reasons.length ? `: ${context.policy.reasons.join('; ')}` : ''}; ${tier.name} (${tier.capabilities.provider}) is not local`;
    return { stage: 'policy', rule: 'policy.local_only', reason, subject: `on tier ${tier.name}` };
  }
  const sensitive = rules.find((rule) => rule.localOnly);
  if (sensitive) {
    return { stage: 'rule', rule: `intent.${sensitive.intent}.local_only`, reason: `${sensitive.why}; ${tier.name} is not local`, subject: `on tier ${tier.name}` };
  }
  return undefined;
}

function verificationCut(method: string, rules: readonly IntentRule[], context: PlanningContext): Cut | undefined {
  if (method !== 'none') return undefined;
  const subject = 'with verification none';
  if (context.policy.requireVerification) return { stage: 'policy', rule: 'policy.require_verification', reason: 'policy requires verification', subject };
  if (context.policy.requireApproval) return { stage: 'policy', rule: 'policy.require_approval', reason: 'policy requires an approval gate, which needs a verifier to review', subject };
  const rule = rules.find((candidate) => candidate.verifierRequired);
  if (rule) return { stage: 'rule', rule: `intent.${rule.intent}.verifier`, reason: rule.why, subject };
  return undefined;
}

/** A reasoner whose model calls tools runs only on a tier configured for tool calls. */
function toolCallCut(reasoner: PlanningContext['reasoners'][number], tier: TierInfo): Cut | undefined {
  if (!reasoner.requiresToolCalls || tier.capabilities.toolCalls === true) return undefined;
  const reason = `${reasoner.strategy} has the model call runtime tools; tier ${tier.name} is not configured for tool calls (tools: true)`;
  return { stage: 'capability', rule: 'capability.tool_calls', reason, subject: `reasoning ${reasoner.strategy} on tier ${tier.name}` };
}

/** One object for every such cut: the tally below groups cuts by identity first. */
const NOTHING_TO_PARALLELISE: Cut = Object.freeze({
  stage: 'rule',
  rule: 'shape.nothing_to_parallelise',
  reason: 'one retrieval method and one model call: a parallel shape equals the sequential one',
  subject: 'with shape parallel and nothing to overlap',
});

/** The offline extractive reader quotes passages; it cannot split a question, critique or judge. */
const FOLLOWS_NO_INSTRUCTIONS: ReadonlySet<string> = new Set(['extractive']);

function reasonerTierCut(reasoner: PlanningContext['reasoners'][number], tier: TierInfo): Cut | undefined {
  if (!reasoner.needsInstructions || !FOLLOWS_NO_INSTRUCTIONS.has(tier.capabilities.provider)) return undefined;
  return {
    stage: 'capability',
    rule: 'capability.reasoner_tier',
    reason: `${reasoner.strategy} needs a model that follows instructions; tier ${tier.name} is the ${tier.capabilities.provider} reader`,
    subject: `reasoning ${reasoner.strategy} on tier ${tier.name}`,
  };
}

/**
 * A debate's solver tier sets beyond the plain one (every call on the judge's tier): each solver
 * on any tier that passes the tier's own cuts and follows instructions, as multisets (solver order
 * does not matter: the slots are alike), so two tiers and two solvers add three sets per judge tier
 * less the plain one. Within budget is the hard constraints' part: a set over max_cost_usd or the
 * latency cap is scored and marked infeasible like any other candidate.
 */
function mixedSolverTiers(branches: number, judge: string, eligible: readonly string[]): (readonly string[])[] {
  const sets: string[][] = [];
  const extend = (from: number, chosen: string[]) => {
    if (chosen.length === branches) {
      if (chosen.some((tier) => tier !== judge)) sets.push([...chosen]);
      return;
    }
    for (let index = from; index < eligible.length; index++) extend(index, [...chosen, eligible[index]]);
  };
  if (eligible.length > 1) extend(0, []);
  return sets;
}

/** Parallel only pays when there is something to overlap: two retrievals or several model calls. */
function shapeCut(set: RetrievalSet, modelCalls: number, shape: ExecutionShape): Cut | undefined {
  if (shape !== 'parallel' || set.methods.length > 1 || modelCalls > 1) return undefined;
  return NOTHING_TO_PARALLELISE;
}

/**
 * The rejected entries, one per distinct rule, reason and subject, in order of first cut. Cuts
 * are tallied by object (each verdict is one object reused across the product loop) and merged
 * by text only here: building and hashing the text key per cut combination (~1,100 per goal on
 * the demo corpus) was a measurable share of candidate generation (bench:plan-overhead).
 */
function rejectedOf(tally: ReadonlyMap<Cut, number>): RejectedCandidate[] {
  const merged = new Map<string, { cut: Cut; count: number }>();
  for (const [cut, count] of tally) {
    const key = `${cut.rule}\u0000${cut.reason}\u0000${cut.subject}`;
    const entry = merged.get(key);
    if (entry) entry.count += count;
    else merged.set(key, { cut, count });
  }
  const rejected: RejectedCandidate[] = [];
  for (const { cut, count } of merged.values()) {
    const description = `${count} candidate${count === 1 ? '' : 's'} ${cut.subject}`;
    rejected.push(Object.freeze({ candidate: { description }, stage: cut.stage, rule: cut.rule, reason: cut.reason }));
  }
  return rejected;
}

/** Candidate sets kept by generation key: a few contexts (principals, policies) × intent class combinations. */
const GENERATION_MEMO_ENTRIES = 32;

export class RuleCandidateGenerator implements CandidateGeneratorPlugin {
  readonly contract = CANDIDATE_GENERATOR_CONTRACT;
  private readonly recent = new LruMap<string, CandidateSet>(GENERATION_MEMO_ENTRIES);

  /** A pure function of generationKey's inputs, so a recent set is returned again (frozen: callers share it). */
  generate(intent: Intent, context: PlanningContext): CandidateSet {
    const key = generationKey(intent, context);
    const known = this.recent.get(key);
    if (known) return known;
    const generated = this.enumerate(intent, context);
    const frozen: CandidateSet = Object.freeze({
      candidates: Object.freeze(generated.candidates.map((candidate) => Object.freeze(candidate))),
      rejected: Object.freeze(generated.rejected),
      enumerated: generated.enumerated,
    });
    this.recent.set(key, frozen);
    return frozen;
  }

  private enumerate(intent: Intent, context: PlanningContext): CandidateSet {
    const rules = applicableRules(intent);
    const sources = plannableSources(context);
    const presentKinds = new Set<string>(sources.map((source) => source.kind));
    const sets = retrievalSets(context.retrievers);
    const scopeList = scopes(intent, sources);
    const compressions = compressionMethods(context) as CompressionMethod[];
    const verifications = verificationMethods(context);
    // A tool-calling reasoner is not enumerated at all while no tier can run it (the offline default).
    const reasoners = context.reasoners.filter((reasoner) => !reasoner.requiresToolCalls || context.tiers.some((tier) => tier.available && tier.capabilities.toolCalls === true));
    const approval = context.policy.requireApproval || rules.some((rule) => rule.approval === true);
    const topK = context.retrieval.topK;

    const setCuts = sets.map((set) => retrievalCut(set, rules, context, intent));
    const tierCuts = context.tiers.map((tier) => tierCut(tier, rules, context));
    const verificationCuts = verifications.map((method) => verificationCut(method, rules, context));
    const cuts = new Map<Cut, number>();
    const candidates: CandidatePlan[] = [];
    const perCombination = compressions.length;
    // Tiers a debate's solver may be routed to, per reasoner that lays out solvers.
    const solverTierNames = new Map(
      reasoners
        .filter((reasoner) => reasoner.mixture?.layout === 'debate')
        .map((reasoner) => [reasoner, context.tiers.filter((tier, index) => !tierCuts[index] && !reasonerTierCut(reasoner, tier)).map((tier) => tier.name)] as const),
    );
    let mixedEnumerated = 0;

    for (let setIndex = 0; setIndex < sets.length; setIndex++) {
      const set = sets[setIndex];
      for (const scope of scopeList) {
        const placeCut = scopeCut(set, scope, rules, presentKinds);
        for (let tierIndex = 0; tierIndex < context.tiers.length; tierIndex++) {
          const tier = context.tiers[tierIndex];
          const prefix = `${set.key}|${scope.key}|${tier.name}|`;
          for (let verificationIndex = 0; verificationIndex < verifications.length; verificationIndex++) {
            for (const reasoner of reasoners) {
              for (const shape of SHAPES) {
                const cut =
                  (setCuts[setIndex]?.stage === 'capability' ? setCuts[setIndex] : undefined) ??
                  tierCuts[tierIndex] ??
                  toolCallCut(reasoner, tier) ??
                  (placeCut?.stage === 'capability' ? placeCut : undefined) ??
                  setCuts[setIndex] ??
                  placeCut ??
                  verificationCuts[verificationIndex] ??
                  reasonerTierCut(reasoner, tier) ??
                  shapeCut(set, reasoner.expectedModelCalls, shape);
                if (cut) {
                  cuts.set(cut, (cuts.get(cut) ?? 0) + perCombination);
                  continue;
                }
                const verification = verifications[verificationIndex] as VerificationMethod;
                const solverSets: (readonly string[] | undefined)[] = [undefined, ...mixedSolverTiers(reasoner.mixture?.branches ?? 0, tier.name, solverTierNames.get(reasoner) ?? [])];
                mixedEnumerated += (solverSets.length - 1) * perCombination;
                for (const solverTiers of solverSets) {
                  const strategy = solverTiers ? `${reasoner.strategy}[${solverTiers.join(',')}]` : reasoner.strategy;
                  const stem = `${prefix}${strategy}|${verification}|${shape}|`;
                  for (const compression of compressions) {
                    candidates.push({
                      id: stem + compression,
                      retrieval: set.methods,
                      sourceKinds: scope.kinds,
                      topK,
                      modelTier: tier.name,
                      reasoning: reasoner.strategy as ReasoningStrategy,
                      ...(solverTiers ? { solverTiers } : {}),
                      compression,
                      verification,
                      shape,
                      approval,
                    });
                  }
                }
              }
            }
          }
        }
      }
    }

    const rejected = rejectedOf(cuts);
    const enumerated = sets.length * scopeList.length * context.tiers.length * verifications.length * reasoners.length * SHAPES.length * perCombination + mixedEnumerated;
    return { candidates, rejected, enumerated };
  }
}

export const ruleCandidateGenerator: CandidateGeneratorPlugin = new RuleCandidateGenerator();
