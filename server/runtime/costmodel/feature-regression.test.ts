import { describe, expect, it } from 'vitest';
import type { CostModelPlugin } from '../contracts/cost-model';
import { ruleCandidateGenerator } from '../planner/candidate-generator';
import { ruleIntentAnalyzer } from '../planner/intent-analyzer';
import { demoPlanningContext } from '../planner/testing/demo-planning-context';
import type { Estimate, IntentClass } from '../types';
import { adjustment, fitResiduals, leverage } from './feature-regression';
import { heuristicCostModel } from './heuristic-cost-model';
import { LearnedCostModel, estimatorExplain } from './learned-cost-model';
import { ObservationLearner, planShape, type LearningObservation } from './observation-learner';
import { requestFeatures, type RequestFeatures } from './request-features';

const SHAPE = 'local/single_shot/bm25';
const prior: Estimate = { value: 1000, low: 500, high: 2000 };

/**
 * Runs whose prior estimate is the same 1000 tokens, while what they actually spent grows with the
 * goal (√) and the sources read (^0.3): only a regression on the features can tell them apart.
 */
function runs(count: number, intentClass: IntentClass = 'incident', withFeatures = true): LearningObservation[] {
  return Array.from({ length: count }, (_, index) => {
    const features: RequestFeatures = { goalTokens: 10 * 2 ** (index % 5), sourceTokens: 1000 * 4 ** (index % 4), topK: 8 };
    const actual = prior.value * Math.sqrt(features.goalTokens / 10) * (features.sourceTokens / 1000) ** 0.3;
    return {
      runId: `r${index}`, planHash: 'h', estimator: 'heuristic-v1', field: 'tokens', intentClass, shape: SHAPE,
      estimate: prior.value, low: prior.low, high: prior.high, actual, observedAt: '2026-12-02T00:00:00.000Z',
      ...(withFeatures ? { features } : {}),
    };
  });
}

const short: RequestFeatures = { goalTokens: 10, sourceTokens: 1000, topK: 8 };
const long: RequestFeatures = { goalTokens: 160, sourceTokens: 1000, topK: 8 };
const large: RequestFeatures = { goalTokens: 10, sourceTokens: 64_000, topK: 8 };

describe('fitResiduals', () => {
  it('recovers a slope from centred data and needs a few featured samples', () => {
    const xs = [[0], [1], [2], [3], [4], [5], [6], [7], [8], [9]];
    const fit = fitResiduals(xs.map(([x]) => 2 * x + 1), xs)!;
    // Ridge pulls the slope below 2 by λ / (Σ(x − x̄)² + λ) = 3 / 85.5.
    expect(fit.slope[0]).toBeCloseTo(2 * (82.5 / 85.5), 9);
    expect(adjustment(fit, [fit.center[0]])).toBe(0);
    expect(fitResiduals([1, 2], [[0], [1]])).toBeUndefined();
    expect(fitResiduals([1, 2, 3], [undefined, undefined, undefined])).toBeUndefined();
  });

  it("gives each sample its ridge leverage: 0 at the centre, growing with the distance from it", () => {
    const xs = [[0], [1], [2], [3], [4], [5], [6], [7], [8], [9]];
    const fit = fitResiduals(xs.map(([x]) => x), xs)!;
    expect(leverage(fit, [4.5])).toBe(0);
    // (x − x̄)² / (Σ(x − x̄)² + λ) = 4.5² / 85.5 at either end.
    expect(leverage(fit, [9])).toBeCloseTo(20.25 / 85.5, 12);
    expect(leverage(fit, [0])).toBeCloseTo(leverage(fit, [9]), 12);
    expect(leverage(undefined, [9])).toBe(0);
    expect(leverage(fit, undefined)).toBe(0);
  });
});

/** mulberry32: a seeded uniform generator so the simulation is deterministic. */
function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let mixed = Math.imul(state ^ (state >>> 15), state | 1);
    mixed ^= mixed + Math.imul(mixed ^ (mixed >>> 7), mixed | 61);
    return ((mixed ^ (mixed >>> 14)) >>> 0) / 4294967296;
  };
}

describe('learned-v2 intervals in a small featured group', () => {
  it('cover a new run about 90% of the time: scores as if each run were left out of the fit', () => {
    // Tokens grow with the goal (slope 0.3 on its log) times lognormal noise (σ 0.4); three features
    // and a shrunk mean fitted on 20 runs, the fewest that take the conformal path. Scored on their
    // own in-sample residuals these intervals covered 0.86 (the fit leans toward each run it saw).
    const random = seededRandom(5);
    const normal = () => Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
    const draw = (index: number): LearningObservation => {
      const features: RequestFeatures = { goalTokens: Math.round(Math.exp(3 + normal())), sourceTokens: Math.round(Math.exp(8 + normal())), topK: Math.round(Math.exp(2 + 0.5 * normal())) };
      const actual = prior.value * Math.exp(0.3 * Math.log1p(features.goalTokens) + 0.4 * normal());
      return { runId: `r${index}`, planHash: 'h', estimator: 'heuristic-v1', field: 'tokens', intentClass: 'incident', shape: SHAPE, estimate: prior.value, low: prior.low, high: prior.high, actual, observedAt: '2026-12-02T00:00:00.000Z', features };
    };
    const trials = 2000;
    let covered = 0;
    for (let trial = 0; trial < trials; trial += 1) {
      const learner = ObservationLearner.from(Array.from({ length: 20 }, (_, index) => draw(index)));
      const next = draw(20);
      const quoted = learner.predict('tokens', 'incident', SHAPE, prior, next.features);
      expect(quoted.method).toBe('conformal');
      if (next.actual >= quoted.estimate.low && next.actual <= quoted.estimate.high) covered += 1;
    }
    expect(covered / trials).toBeGreaterThan(0.88);
    expect(covered / trials).toBeLessThan(0.93);
  });
});

describe('learned-v2 regresses on request features within a group', () => {
  it('estimates a long goal higher than a short one, and large sources higher than a small one, from the same prior', () => {
    const learner = ObservationLearner.from(runs(40));
    const estimateOf = (features: RequestFeatures) => learner.predict('tokens', 'incident', SHAPE, prior, features).estimate.value;
    expect(estimateOf(long)).toBeGreaterThan(estimateOf(short) * 2);
    expect(estimateOf(large)).toBeGreaterThan(estimateOf(short) * 1.5);
    // Without features the group mean alone, as before.
    const mean = learner.predict('tokens', 'incident', SHAPE, prior).estimate.value;
    expect(mean).toBeGreaterThan(estimateOf(short));
    expect(mean).toBeLessThan(estimateOf(long));
  });

  it('counts observations stored without features toward the group mean only', () => {
    const old = ObservationLearner.from(runs(40, 'incident', false));
    const withOld = old.predict('tokens', 'incident', SHAPE, prior, long);
    expect(withOld.samples).toBe(40);
    expect(withOld.estimate.value).toBe(old.predict('tokens', 'incident', SHAPE, prior, short).estimate.value);
    const mixed = ObservationLearner.from([...runs(40, 'incident', false), ...runs(40)]);
    expect(mixed.predict('tokens', 'incident', SHAPE, prior, long).samples).toBe(80);
    expect(mixed.predict('tokens', 'incident', SHAPE, prior, long).estimate.value).toBeGreaterThan(mixed.predict('tokens', 'incident', SHAPE, prior, short).estimate.value);
  });

  it('quotes a narrower interval once the features explain the spread', () => {
    const width = (learner: ObservationLearner) => {
      const { low, high } = learner.predict('tokens', 'incident', SHAPE, prior, long).estimate;
      return Math.log(high) - Math.log(low);
    };
    const featured = ObservationLearner.from(runs(40));
    expect(featured.predict('tokens', 'incident', SHAPE, prior, long).method).toBe('conformal');
    expect(width(featured)).toBeLessThan(width(ObservationLearner.from(runs(40, 'incident', false))) / 2);
  });

  it('leaves probabilities to the group mean', () => {
    const learner = ObservationLearner.from(runs(40).map((run, index) => ({ ...run, field: 'accuracy' as const, estimate: 0.5, low: 0.3, high: 0.7, actual: index % 2 })));
    const band: Estimate = { value: 0.5, low: 0.3, high: 0.7 };
    expect(learner.predict('accuracy', 'incident', SHAPE, band, long).estimate).toEqual(learner.predict('accuracy', 'incident', SHAPE, band, short).estimate);
  });
});

describe('LearnedCostModel with request features', () => {
  const context = demoPlanningContext();
  const shortIntent = ruleIntentAnalyzer.analyze('Explain why deployment checkout-api failed');
  const longIntent = ruleIntentAnalyzer.analyze(
    'Explain why deployment checkout-api failed after yesterday evening rollout, walking through every step of the pipeline, the configuration that changed since the previous release, and how the failing health checks relate to the database migration that ran right before the deployment started',
  );
  // A prior blind to goal length, so any difference below is the learner's.
  const flatPrior: CostModelPlugin = { ...heuristicCostModel, version: 'flat', estimate: (...args) => ({ ...heuristicCostModel.estimate(...args), tokens: prior }), score: heuristicCostModel.score.bind(heuristicCostModel) };

  it('estimates two requests that differ only in goal length differently after training', () => {
    expect(longIntent.primary).toBe(shortIntent.primary);
    const candidate = ruleCandidateGenerator.generate(shortIntent, context).candidates[0];
    const learner = ObservationLearner.from(runs(40, shortIntent.primary).map((run) => ({ ...run, shape: planShape(candidate) })));
    const model = new LearnedCostModel(flatPrior, learner);
    const shortTokens = model.estimate(candidate, shortIntent, context).tokens.value;
    const longTokens = model.estimate(candidate, longIntent, context).tokens.value;
    expect(requestFeatures(candidate, longIntent, context).goalTokens).toBeGreaterThan(requestFeatures(candidate, shortIntent, context).goalTokens);
    expect(longTokens).toBeGreaterThan(shortTokens * 1.5);
    // EXPLAIN carries the features the run will be observed with.
    expect(estimatorExplain(flatPrior, candidate, longIntent, context, learner).features).toEqual(requestFeatures(candidate, longIntent, context));
  });
});
