/**
 * A debate's solvers routed to tiers of their own (issue 15.2, "each model call routed
 * independently"): the generator offers the mixed sets, the cost model prices each call on its
 * tier, and the graph builder gives each solver node its tier and its own share of the estimate.
 */
import { describe, expect, it } from 'vitest';
import type { PlanningContext } from '../contracts/candidate-generator';
import { heuristicCostModel } from '../costmodel/heuristic-cost-model';
import { buildExecutionGraph } from '../execution/graph-builder';
import type { ReasonNode } from '../ir/graph';
import type { CandidatePlan } from '../types';
import { ruleCandidateGenerator } from './candidate-generator';
import { ruleIntentAnalyzer } from './intent-analyzer';
import { demoPlanningContext } from './testing/demo-planning-context';

const GOAL = 'What is a circuit breaker?';
const DEBATE = { strategy: 'debate', expectedModelCalls: 3, needsInstructions: true, mixture: { layout: 'debate' as const, branches: 2 } };
const withDebate = (base: PlanningContext = demoPlanningContext()): PlanningContext => ({ ...base, reasoners: [...base.reasoners, DEBATE] });
const intent = ruleIntentAnalyzer.analyze(GOAL);
const debatesOf = (context: PlanningContext) => ruleCandidateGenerator.generate(intent, context).candidates.filter((candidate) => candidate.reasoning === 'debate');
const solverSets = (candidates: readonly CandidatePlan[], judge: string) =>
  [...new Set(candidates.filter((candidate) => candidate.modelTier === judge).map((candidate) => candidate.solverTiers?.join(',') ?? '(judge tier)'))].sort();

describe('mixed-tier debates', () => {
  it('are offered for every instruction-following tier pair, never on the extractive reader, each with its own id', () => {
    const set = ruleCandidateGenerator.generate(intent, withDebate());
    const debates = set.candidates.filter((candidate) => candidate.reasoning === 'debate');
    expect(solverSets(debates, 'cheap')).toEqual(['(judge tier)', 'cheap,premium', 'premium,premium']);
    expect(solverSets(debates, 'premium')).toEqual(['(judge tier)', 'cheap,cheap', 'cheap,premium']);
    expect(debates.some((candidate) => candidate.solverTiers?.includes('local'))).toBe(false);
    expect(new Set(set.candidates.map((candidate) => candidate.id)).size).toBe(set.candidates.length);
    expect(debates.find((candidate) => candidate.solverTiers?.join() === 'cheap,premium')?.id).toContain('|debate[cheap,premium]|');
    // Every enumerated plan is still a candidate or counted in a cut.
    const cut = set.rejected.reduce((sum, entry) => sum + Number(/^(\d+) /.exec('description' in entry.candidate ? entry.candidate.description : '')?.[1] ?? 0), 0);
    expect(set.candidates.length + cut).toBe(set.enumerated);
  });

  it('are not offered with one instruction-following tier, nor a single-tier plan changed', () => {
    const one = debatesOf(withDebate(demoPlanningContext({ premiumAvailable: false })));
    expect(one.length).toBeGreaterThan(0);
    expect(one.every((candidate) => candidate.solverTiers === undefined)).toBe(true);
  });

  it('price each call on its own tier: cost, latency and quality between the single-tier debates', () => {
    const context = withDebate();
    const debates = debatesOf(context);
    const premiumPlan = debates.find((candidate) => candidate.modelTier === 'premium' && !candidate.solverTiers && candidate.compression === 'none')!;
    // The same plan but for the tiers: the ids differ only in the tier and the solver set.
    const byId = (id: string) => debates.find((candidate) => candidate.id === id)!;
    const cheapPlan = byId(premiumPlan.id.replace('|premium|', '|cheap|'));
    const mixedPlan = byId(premiumPlan.id.replace('|debate|', '|debate[cheap,cheap]|'));
    const estimate = (candidate: CandidatePlan) => heuristicCostModel.estimate(candidate, intent, context);
    const cheap = estimate(cheapPlan);
    const premium = estimate(premiumPlan);
    const mixed = estimate(mixedPlan);
    // Two cheap solvers and a premium judge: a third of the premium debate's model spend and two thirds of the cheap one's.
    expect(mixed.costUsd.value).toBeCloseTo(premium.costUsd.value / 3 + (2 * cheap.costUsd.value) / 3, 12);
    // One round of solvers side by side (the cheap ones), then the premium judge.
    expect(mixed.latencySeconds.value).toBeCloseTo((cheap.latencySeconds.value + premium.latencySeconds.value) / 2, 9);
    // Accuracy is grounding × the quality prior (no gain measured): half the judge's (premium), half the solvers' (cheap).
    expect(mixed.accuracy.value).toBeCloseTo((cheap.accuracy.value + premium.accuracy.value) / 2, 9);
    expect(mixed.tokens.value).toBe(premium.tokens.value);
  });

  it('become solver nodes on their tiers, each with the estimate its tier prices, summing to the plan totals', () => {
    const context = withDebate();
    const candidate = debatesOf(context).find((entry) => entry.modelTier === 'premium' && entry.solverTiers?.join() === 'cheap,premium')!;
    const estimates = heuristicCostModel.estimate(candidate, intent, context);
    const tiers = new Map(context.tiers.map((tier) => [tier.name, tier.capabilities]));
    const graph = buildExecutionGraph({
      candidate, estimates, sources: ['docs'], retrievers: context.retrievers, tokenBudget: 3000, finalK: 8, meanChunkTokens: 40, localOnly: false, requireCitations: true,
      approvalReason: '', maxOutputTokens: 400, retry: { maxAttempts: 1, backoffMs: 0 }, nodeTimeoutMs: 1000, intentClasses: ['conceptual'], observationSources: [],
      mixture: { ...DEBATE.mixture, modelCalls: 3 },
      callTiers: ['cheap', 'premium', 'premium'].map((name) => tiers.get(name)!),
    });
    const reason = (id: string) => graph.nodes.find((node): node is ReasonNode => node.kind === 'reason' && node.id === id)!;
    expect(reason('solver1')).toMatchObject({ tier: 'cheap', purpose: 'solver', slot: 0 });
    expect(reason('solver2')).toMatchObject({ tier: 'premium', purpose: 'solver', slot: 1 });
    expect(reason('reason')).toMatchObject({ tier: 'premium', inputs: ['assemble', 'solver1', 'solver2'] });
    expect(reason('solver1').estimate!.costUsd).toBeLessThan(reason('solver2').estimate!.costUsd / 5);
    expect(reason('solver2').estimate!.costUsd).toBeCloseTo(reason('reason').estimate!.costUsd, 12);
    const modelUsd = ['solver1', 'solver2', 'reason'].reduce((sum, id) => sum + reason(id).estimate!.costUsd, 0);
    const retrieveUsd = graph.nodes.filter((node) => node.kind === 'retrieve').reduce((sum, node) => sum + (node.estimate?.costUsd ?? 0), 0);
    expect(modelUsd + retrieveUsd).toBeCloseTo(estimates.costUsd.value, 12);
  });
});
