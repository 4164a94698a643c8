import type { ExplainResult } from '@/server/runtime/explain/explain-types';

/**
 * "Which estimator and how many samples decided" (issue 16.2), as the summary's two lines: the
 * estimator the candidates were ranked on, and the bandit's choice among the top feasible plans.
 * Plans stored before either existed have neither: those lines are then absent, not invented.
 */
export function estimatorText(explain: Pick<ExplainResult, 'estimator' | 'costModel'>): string {
  const estimator = explain.estimator;
  if (!estimator) return `${explain.costModel.version} (the heuristic alone)`;
  if (estimator.name === estimator.prior) return `${estimator.prior}: no runs observed yet for this intent and plan shape`;
  const runs = estimator.samples === 1 ? 'run' : 'runs';
  return `${estimator.name} over the ${estimator.prior} prior: ${estimator.samples} observed ${runs} behind the least-observed estimate`;
}

export function banditText(explain: Pick<ExplainResult, 'learning'>): string | undefined {
  const learning = explain.learning;
  if (!learning) return undefined;
  const runs = `${learning.samples ?? 0} ${learning.samples === 1 ? 'run' : 'runs'}`;
  const kept = learning.candidateId === learning.optimizerCandidateId ? 'kept the optimizer’s plan' : `chose arm ${learning.arm} over the optimizer’s plan`;
  const explored = learning.explored ? ` — an exploration (best lower bound was ${learning.greedyArm})` : '';
  return `${kept} (${runs} on this arm, estimate ${learning.estimate.mean.toFixed(3)} ± ${learning.estimate.bonus.toFixed(3)})${explored}`;
}
