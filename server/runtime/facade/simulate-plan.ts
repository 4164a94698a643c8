/**
 * simulate(): "what will it cost me?" — the chosen plan's heuristic estimates corrected by the
 * learned estimator (learned-v2), as p05–p95 intervals. With few observations for the goal's intent
 * class and plan shape the interval is the prior widened by a Student-t with few degrees of freedom,
 * so an under-sampled quote is honestly wide; see costmodel/observation-learner.ts.
 */
import type { LearningState } from '../costmodel/calibration-state';
import { LEARNED_ESTIMATOR, planShape, type LearnedEstimate } from '../costmodel/observation-learner';
import type { SimulateResult } from '../explain/explain-types';
import type { EstimatedField } from '../types';
import type { PlannedRequest } from './plan-request';

const QUOTED_FIELDS = ['costUsd', 'latencySeconds', 'tokens'] as const;

export function simulatePlan(planned: PlannedRequest, state: LearningState): SimulateResult {
  const explain = planned.explain;
  const { choice } = explain.chosen;
  // The heuristic's estimates are the prior learned-v2 corrects; the chosen plan's may already be corrected.
  const estimates = { ...explain.chosen.estimates, ...explain.estimator?.priorEstimates };
  const intentClass = explain.intent.primary;
  const shape = planShape(choice);
  const learned = (field: EstimatedField): LearnedEstimate => state.learner.predict(field, intentClass, shape, estimates[field], explain.estimator?.features);
  const [costUsd, latencySeconds, tokens] = QUOTED_FIELDS.map(learned);
  const confidence = choice.verification === 'none' ? undefined : learned('verificationConfidence');
  const models = explain.capabilities.tiers.filter((tier) => tier.name === choice.modelTier).map((tier) => `${tier.name}: ${tier.capabilities.provider}/${tier.capabilities.modelId}`);
  return {
    goal: explain.goal,
    // The plan EXPLAIN shows for the same request: one planning path (ContextRuntime.plan), one hash.
    planHash: explain.planHash,
    constraints: explain.constraints,
    expected: { costUsd: costUsd.estimate, latencySeconds: latencySeconds.estimate, tokens: tokens.estimate },
    expectedConfidence: confidence?.estimate ?? estimates.verificationConfidence,
    expectedModels: models,
    expectedRetrieval: choice.retrieval,
    basedOnSamples: Math.min(costUsd.samples, latencySeconds.samples, tokens.samples),
    interval: 'p05-p95',
    estimator: LEARNED_ESTIMATOR,
    intentClass,
    planShape: shape,
    prior: { costUsd: estimates.costUsd, latencySeconds: estimates.latencySeconds, tokens: estimates.tokens },
    samples: Object.fromEntries(QUOTED_FIELDS.map((field, index) => {
      const entry = [costUsd, latencySeconds, tokens][index];
      return [field, { count: entry.samples, group: entry.group, method: entry.method }];
    })) as SimulateResult['samples'],
  };
}
