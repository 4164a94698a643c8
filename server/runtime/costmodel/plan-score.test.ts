import { describe, expect, it } from 'vitest';
import { DEFAULT_WEIGHTS } from '../config/config-schema';
import { isContextRuntimeError } from '../errors';
import type { CandidateEstimates, Estimate } from '../types';
import { resolveWeights, scoreComponents, scorePlan } from './plan-score';
import { COST_REFERENCE_USD, LATENCY_REFERENCE_SECONDS } from './units';

const point = (value: number): Estimate => ({ value, low: value, high: value });
const estimates = (overrides: Partial<Record<keyof CandidateEstimates, number>> = {}): CandidateEstimates => {
  const values = { accuracy: 0.8, costUsd: 0.01, latencySeconds: 10, tokens: 2000, risk: 0.1, hallucination: 0.05, contextLoss: 0.1, cacheHit: 0.2, verificationConfidence: 0.6, ...overrides };
  return Object.fromEntries(Object.entries(values).map(([key, value]) => [key, point(value)])) as unknown as CandidateEstimates;
};

const expectInvalid = (run: () => unknown, field: string, message: string) => {
  let caught: unknown;
  try {
    run();
  } catch (error) {
    caught = error;
  }
  expect(isContextRuntimeError(caught)).toBe(true);
  expect((caught as { code: string }).code).toBe('INVALID_INPUT');
  expect((caught as { field: string }).field).toBe(field);
  expect((caught as Error).message).toBe(message);
};

describe('scoreComponents', () => {
  it('maps cost and latency through the reference saturation and leaves probabilities as they are', () => {
    const components = scoreComponents(estimates());
    expect(components.cost).toBeCloseTo(0.01 / (0.01 + COST_REFERENCE_USD), 12);
    expect(components.lat).toBeCloseTo(10 / (10 + LATENCY_REFERENCE_SECONDS), 12);
    expect(components).toMatchObject({ acc: 0.8, risk: 0.1, hall: 0.05, loss: 0.1, cache: 0.2, vrf: 0.6 });
    for (const value of Object.values(scoreComponents(estimates({ costUsd: 1e6, latencySeconds: 1e9 })))) {
      expect(value).toBeGreaterThanOrEqual(0);
      expect(value).toBeLessThanOrEqual(1);
    }
  });
});

describe('scorePlan', () => {
  it('is Σ w·benefit − Σ w·penalty over Σ w', () => {
    const weights = resolveWeights(DEFAULT_WEIGHTS);
    const score = scorePlan(estimates(), weights);
    const c = score.components;
    const w = DEFAULT_WEIGHTS;
    const expected = (w.acc * c.acc + w.cache * c.cache + w.vrf * c.vrf - w.cost * c.cost - w.lat * c.lat - w.risk * c.risk - w.hall * c.hall - w.loss * c.loss) / Object.values(w).reduce((a, b) => a + b, 0);
    expect(score.total).toBeCloseTo(expected, 12);
    expect(score.weights).toBe(weights);
  });

  it('a per-request weight override can flip which of two plans wins', () => {
    const cheapSlow = estimates({ costUsd: 0.0005, latencySeconds: 30, accuracy: 0.7 });
    const dearFast = estimates({ costUsd: 0.05, latencySeconds: 2, accuracy: 0.8 });
    const base = resolveWeights(DEFAULT_WEIGHTS);
    expect(scorePlan(cheapSlow, base).total).toBeGreaterThan(scorePlan(dearFast, base).total);
    const latencyCritical = resolveWeights(DEFAULT_WEIGHTS, { lat: 3, cost: 0.1 });
    expect(scorePlan(dearFast, latencyCritical).total).toBeGreaterThan(scorePlan(cheapSlow, latencyCritical).total);
  });
});

describe('resolveWeights', () => {
  it('applies overrides, accepts numeric strings and freezes the result', () => {
    const weights = resolveWeights(DEFAULT_WEIGHTS, { lat: 2, cost: '0.25' });
    expect(weights).toEqual({ ...DEFAULT_WEIGHTS, lat: 2, cost: 0.25 });
    expect(Object.isFrozen(weights)).toBe(true);
    expect(resolveWeights(DEFAULT_WEIGHTS, undefined)).toEqual(DEFAULT_WEIGHTS);
  });

  it('rejects bad overrides naming the weight', () => {
    expectInvalid(() => resolveWeights(DEFAULT_WEIGHTS, { cost: -1 }), 'weights.cost', 'weights.cost: expected a non-negative number, got -1');
    expectInvalid(() => resolveWeights(DEFAULT_WEIGHTS, { lat: Number.NaN }), 'weights.lat', 'weights.lat: expected a non-negative number, got NaN');
    expectInvalid(() => resolveWeights(DEFAULT_WEIGHTS, { acc: Number.POSITIVE_INFINITY }), 'weights.acc', 'weights.acc: expected a non-negative number, got Infinity');
    expectInvalid(() => resolveWeights(DEFAULT_WEIGHTS, { risk: 'high' }), 'weights.risk', 'weights.risk: expected a non-negative number, got "high"');
    expectInvalid(() => resolveWeights(DEFAULT_WEIGHTS, { speed: 1 }), 'weights.speed', 'weights.speed: unknown weight; expected one of acc, cost, lat, risk, hall, loss, cache, vrf');
    expectInvalid(() => resolveWeights(DEFAULT_WEIGHTS, [1, 2]), 'weights', 'weights: expected an object of weights, got an array');
    const zero = { acc: 0, cost: 0, lat: 0, risk: 0, hall: 0, loss: 0, cache: 0, vrf: 0 };
    expectInvalid(() => resolveWeights(zero), 'weights', 'weights: at least one weight must be positive');
  });
});
