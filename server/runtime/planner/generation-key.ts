import type { PlanningContext } from '../contracts/candidate-generator';
import type { Intent } from '../types';
import { plannableSources } from './candidate-dimensions';
import { namedSourceKinds } from './named-source-kinds';

/**
 * Everything RuleCandidateGenerator reads, as one string: equal keys give equal candidate sets, so
 * the generator keeps its recent sets by this key (candidate-generator.ts). Goals that miss the plan
 * cache still share the planning context and their intent's classes with the goals before them (all
 * 100 HotpotQA questions plan over the same retrievers, tiers and sources); enumerating the 4,320
 * combinations again gave the same 768 plans at 0.7 ms a goal, most of it allocation whose
 * collection the cost model's stage then paid for (bench:retrieval, issue 16 point 5).
 *
 * From the intent only its classes and the source kinds its goal names (scopes, rules); from a
 * retriever what the cuts and retrieval sets read (never its latency or fusion ratios, which only
 * the cost model reads); from a tier its availability and what the cuts test. A field the
 * generator starts reading must be added here: generation-key.test.ts varies every field listed
 * and checks the key changes with each.
 */
export function generationKey(intent: Intent, context: PlanningContext): string {
  const retrievers = context.retrievers.map((retriever) => [
    retriever.method,
    retriever.available,
    retriever.unavailableReason ?? null,
    retriever.sendsPassagesOffMachine === true,
    retriever.sourceKinds ?? null,
    retriever.composedOf ?? null,
    retriever.requires,
    retriever.recallPrior[intent.primary] ?? null,
    retriever.recallPrior.default ?? null,
  ]);
  const tiers = context.tiers.map((tier) => [tier.name, tier.available, tier.unavailableReason ?? null, tier.capabilities.local, tier.capabilities.provider, tier.capabilities.toolCalls === true]);
  const kinds = [...new Set(plannableSources(context).map((source) => source.kind))].sort();
  const { policy } = context;
  return JSON.stringify([
    intent.primary,
    intent.classes,
    namedSourceKinds(intent.goal),
    retrievers,
    tiers,
    kinds,
    [policy.localOnly, policy.requireVerification, policy.requireApproval, policy.reasons],
    context.reasoners,
    context.compressions.map((compression) => compression.method),
    context.verifiers.map((verifier) => verifier.method),
    context.retrieval.topK,
  ]);
}
