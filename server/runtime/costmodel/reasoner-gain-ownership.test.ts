/**
 * One owner for a reasoner's quality gain: reasoner-gains.ts learns it from the same accuracy
 * observations learned-v2 reads, and the heuristic's accuracy already carries it, so learned-v2
 * must not add it again from the residuals of that reasoner's runs.
 */
import { describe, expect, it } from 'vitest';
import type { Estimate } from '../types';
import { ObservationLearner, type LearningObservation } from './observation-learner';
import { ReasonerOutcomeTally, gainValues, resolveReasonerGains } from './reasoner-gains';
import { clampProbability } from './units';

const INTENT = 'incident' as const;
const SINGLE = 'loopback/single_shot/bm25';
const DEBATE = 'loopback/debate/bm25';
/** Grounding × tier quality prior of the plan, as the heuristic reads them (heuristic-cost-model.ts). */
const GROUNDING = 0.8;
const QUALITY_PRIOR = 0.6;

const accuracyWith = (gain: number): Estimate => {
  const value = clampProbability(GROUNDING * (QUALITY_PRIOR + gain * (1 - QUALITY_PRIOR)));
  return { value, low: clampProbability(value - 0.2), high: clampProbability(value + 0.2) };
};

const runs = (count: number, shape: string, estimate: number, actual: (index: number) => number): LearningObservation[] =>
  Array.from({ length: count }, (_, index) => ({
    runId: `${shape}-${index}`,
    planHash: 'h',
    estimator: 'heuristic-v1',
    field: 'accuracy',
    intentClass: INTENT,
    estimate,
    low: estimate - 0.2,
    high: estimate + 0.2,
    actual: actual(index),
    observedAt: '2026-12-02T00:00:00Z',
    shape,
  }));

describe('a reasoner quality gain is counted once', () => {
  // Debate runs planned while its gain was 0 (estimate = the one-shot accuracy) and answered every
  // time; single_shot runs answer about as often as estimated.
  const baseline = accuracyWith(0).value;
  const observations = [...runs(30, SINGLE, baseline, (index) => (index % 2 === 0 ? 1 : 0)), ...runs(30, DEBATE, baseline, () => 1)];

  it('by the resolved gain in the prior, not again by a learned-v2 correction from the same runs', () => {
    const tally = new ReasonerOutcomeTally();
    for (const observation of observations) tally.add(observation);
    const gain = gainValues(resolveReasonerGains({}, tally)).debate?.[INTENT] ?? 0;
    expect(gain).toBeGreaterThan(0.3);

    const learner = ObservationLearner.from(observations);
    const single = learner.predict('accuracy', INTENT, SINGLE, accuracyWith(0)).estimate.value;
    const debate = learner.predict('accuracy', INTENT, DEBATE, accuracyWith(gain)).estimate.value;
    // learned-v2 moves both plans by the same (baseline) correction: the gap between them is the gain alone.
    expect(debate - single).toBeCloseTo(accuracyWith(gain).value - accuracyWith(0).value, 9);
    // Adding the debate runs' residuals (+0.5 each against their gain-0 estimates) would have put it near 1.
    expect(debate).toBeLessThan(accuracyWith(gain).value + 0.05);
  });

  it("leaves a non-baseline reasoner's accuracy runs to the gain tally, and learns its cost as before", () => {
    const learner = ObservationLearner.from([...observations, ...runs(30, DEBATE, 0.01, () => 0.03).map((run) => ({ ...run, field: 'costUsd' as const }))]);
    expect(learner.count('accuracy', INTENT)).toBe(30);
    expect(learner.count('accuracy', INTENT, DEBATE)).toBe(30);
    expect(learner.predict('accuracy', INTENT, DEBATE, accuracyWith(0))).toMatchObject({ group: 'intent+shape', samples: 30 });
    expect(learner.predict('costUsd', INTENT, DEBATE, { value: 0.01, low: 0.005, high: 0.02 })).toMatchObject({ group: 'intent+shape', samples: 30 });
  });
});
