/**
 * Shapes planner output and run actuals into the EXPLAIN object: candidate descriptions, the
 * candidates worth showing, and the ANALYZE overlay with PostgreSQL-style misestimate factors.
 */
import type { NodeOutcome } from '../contracts/scheduler';
import type { RunRecord } from '../contracts/run-store';
import { analyzedCompression } from '../explain/compression-text';
import type { AnalyzeSection, AnalyzedModelCall, AnalyzedNode, AnalyzedToolLoop, ExplainedCandidate, Misestimate } from '../explain/explain-types';
import { TOOL_LOOP_EXPECTED_CALLS } from '../reasoner/tool-loop-reasoner';
import { typedOutput } from '../ir/node-outputs';
import { type ExecutionGraph, modelTokensOf, type NodeEstimate } from '../ir/graph';
import type { ScoredCandidate } from '../types';
import type { BudgetLimitsShown } from '../explain/budget-text';

/** Candidates EXPLAIN lists in full; the rest are counted (EXPLAIN of a 1,000-candidate plan must stay readable). */
const FEASIBLE_SHOWN = 25;
const INFEASIBLE_SHOWN = 10;

export function describeCandidate(candidate: ScoredCandidate['candidate']): string {
  const scope = candidate.sourceKinds === 'all' ? 'all sources' : candidate.sourceKinds.join('+');
  const gates = [candidate.verification === 'none' ? 'no verification' : `verify ${candidate.verification}`, candidate.approval ? 'human approval' : ''].filter(Boolean).join(', ');
  const solvers = candidate.solverTiers ? ` (solvers on ${candidate.solverTiers.join(', ')})` : '';
  return `${candidate.retrieval.join('+')} over ${scope} (k=${candidate.topK}) → ${candidate.modelTier}/${candidate.reasoning}${solvers}, compress ${candidate.compression}, ${gates}, ${candidate.shape}`;
}

export function explainCandidate(scored: ScoredCandidate, chosen: boolean): ExplainedCandidate {
  return { id: scored.candidate.id, description: describeCandidate(scored.candidate), choice: scored.candidate, estimates: scored.estimates, score: scored.score, feasible: scored.feasible, violations: scored.violations, chosen };
}

/** The best feasible candidates, then the best infeasible ones (with what they violate), chosen always included. */
export function rankForExplain(ranked: readonly ScoredCandidate[], chosen: ScoredCandidate): ScoredCandidate[] {
  const feasible = ranked.filter((candidate) => candidate.feasible).slice(0, FEASIBLE_SHOWN);
  const infeasible = ranked.filter((candidate) => !candidate.feasible).slice(0, INFEASIBLE_SHOWN);
  if (!feasible.some((candidate) => candidate.candidate.id === chosen.candidate.id)) feasible.unshift(chosen);
  return [...feasible, ...infeasible];
}

export function misestimate(estimate: number, actual: number): Misestimate {
  // Both ~0 is a perfect estimate; otherwise the ratio, floored so a zero side cannot divide by zero.
  const floor = 1e-6;
  if (Math.abs(estimate) < floor && Math.abs(actual) < floor) return { factor: 1, direction: 'exact' };
  const ratio = Math.max(actual, floor) / Math.max(estimate, floor);
  if (ratio > 1.05) return { factor: ratio, direction: 'under' };
  if (ratio < 1 / 1.05) return { factor: 1 / ratio, direction: 'over' };
  return { factor: ratio >= 1 ? ratio : 1 / ratio, direction: 'exact' };
}

const misestimates = (estimate: NodeEstimate, actual: NodeEstimate) => ({
  tokens: misestimate(estimate.tokens, actual.tokens),
  costUsd: misestimate(estimate.costUsd, actual.costUsd),
  latencySeconds: misestimate(estimate.latencySeconds, actual.latencySeconds),
});

const ZERO: NodeEstimate = { tokens: 0, costUsd: 0, latencySeconds: 0 };
const add = (a: NodeEstimate, b: NodeEstimate): NodeEstimate => ({ tokens: a.tokens + b.tokens, costUsd: a.costUsd + b.costUsd, latencySeconds: a.latencySeconds + b.latencySeconds });

/** A reason node's calls with how the model-context cache and the provider's prompt cache served each. */
function modelCallsOf(node: ExecutionGraph['nodes'][number], outcome: NodeOutcome): readonly AnalyzedModelCall[] | undefined {
  const typed = typedOutput(node, outcome.output);
  if (typed.kind !== 'reason' || !Array.isArray(typed.output.modelCalls)) return undefined;
  // Nothing to say when neither cache was in play: EXPLAIN stays as it was for such runs.
  if (!typed.output.modelCalls.some((call) => call.cache !== undefined || call.usage.cachedInputTokens !== undefined)) return undefined;
  return typed.output.modelCalls.map((call) => ({
    tier: call.tier,
    modelId: call.modelId,
    cache: call.cache?.status ?? 'off',
    ...(call.cache?.savedTokens !== undefined ? { savedTokens: call.cache.savedTokens } : {}),
    ...(call.usage.cachedInputTokens !== undefined ? { providerCachedInputTokens: call.usage.cachedInputTokens } : {}),
  }));
}

/** A tool loop's steps beside the node's estimate split over the calls the cost model expected. */
function toolLoopOf(node: ExecutionGraph['nodes'][number], outcome: NodeOutcome): AnalyzedToolLoop | undefined {
  const typed = typedOutput(node, outcome.output);
  const loop = typed.kind === 'reason' ? typed.output.toolLoop : undefined;
  if (!loop) return undefined;
  const estimate = node.estimate ?? ZERO;
  return {
    stepsEstimated: TOOL_LOOP_EXPECTED_CALLS,
    estimatePerStep: { tokens: Math.round(estimate.tokens / TOOL_LOOP_EXPECTED_CALLS), costUsd: estimate.costUsd / TOOL_LOOP_EXPECTED_CALLS },
    maxSteps: loop.maxSteps,
    steps: loop.steps.map((step) => ({ step: step.step, tools: step.toolCalls.map((call) => call.tool), tokens: step.usage.inputTokens + step.usage.outputTokens, costUsd: step.costUsd, latencyMs: step.latencyMs, finish: step.finish })),
    end: loop.end.by === 'budget' ? `budget: ${loop.end.refusal}` : loop.end.by,
  };
}

export function buildAnalyze(graph: ExecutionGraph, run: Pick<RunRecord, 'id' | 'status' | 'nodeOutcomes' | 'skipped' | 'pendingNodeId'>, attempts: ReadonlyMap<string, number> = new Map(), failedNodeId?: string, limits?: BudgetLimitsShown): AnalyzeSection {
  let estimateTotal = ZERO;
  let actualTotal = ZERO;
  const nodes: AnalyzedNode[] = graph.nodes.map((node) => {
    const estimate = node.estimate ?? ZERO;
    const outcome: NodeOutcome | undefined = run.nodeOutcomes.get(node.id);
    if (!outcome) {
      const status = run.skipped.includes(node.id) ? 'skipped' : node.id === failedNodeId ? 'failed' : 'pending';
      return { nodeId: node.id, kind: node.kind, status, attempts: attempts.get(node.id) ?? 0, estimate };
    }
    // Totals count model tokens: the reason node's, and what another node spent on a model (an LLM
    // reranker); a retrieve node's own "tokens" are evidence sizes, not spend.
    estimateTotal = add(estimateTotal, { ...estimate, tokens: modelTokensOf(node.kind, estimate) });
    actualTotal = add(actualTotal, { ...outcome.actual, tokens: modelTokensOf(node.kind, outcome.actual) });
    const calls = modelCallsOf(node, outcome);
    const typed = typedOutput(node, outcome.output);
    const compression = typed.kind === 'compress' && typed.output ? analyzedCompression(typed.output) : undefined;
    const toolLoop = toolLoopOf(node, outcome);
    return { nodeId: node.id, kind: node.kind, status: 'done', attempts: attempts.get(node.id) ?? 1, estimate, actual: outcome.actual, misestimate: misestimates(estimate, outcome.actual), ...(calls ? { modelCalls: calls } : {}), ...(outcome.budget ? { budget: outcome.budget } : {}), ...(compression ? { compression } : {}), ...(toolLoop ? { toolLoop } : {}) };
  });
  return { runId: run.id, status: run.status, nodes, totals: { estimate: estimateTotal, actual: actualTotal, misestimate: misestimates(estimateTotal, actualTotal) }, ...(limits ? { limits } : {}) };
}
