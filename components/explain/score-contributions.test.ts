import { describe, expect, it } from 'vitest';
import { scorePlan } from '@/server/runtime/costmodel/plan-score';
import type { CandidateEstimates } from '@/server/runtime/types';
import { chartScale, contributions } from './score-contributions';

const at = (value: number) => ({ value, low: value, high: value });
const estimates: CandidateEstimates = {
  accuracy: at(0.8), costUsd: at(0.01), latencySeconds: at(4), tokens: at(3000), risk: at(0.1),
  hallucination: at(0.2), contextLoss: at(0.15), cacheHit: at(0.3), verificationConfidence: at(0.7),
};

describe('score contributions', () => {
  it('add up to the PlanScore total, benefits positive and penalties negative', () => {
    const score = scorePlan(estimates, { acc: 1, cost: 0.6, lat: 0.3, risk: 0.8, hall: 0.9, loss: 0.4, cache: 0.2, vrf: 0.5 });
    const parts = contributions(score);
    expect(parts.reduce((sum, part) => sum + part.value, 0)).toBeCloseTo(score.total, 10);
    expect(parts.find((part) => part.key === 'acc')!.value).toBeGreaterThan(0);
    expect(parts.find((part) => part.key === 'hall')!.value).toBeLessThan(0);
  });

  it('is all zero when every weight is zero', () => {
    const score = scorePlan(estimates, { acc: 0, cost: 0, lat: 0, risk: 0, hall: 0, loss: 0, cache: 0, vrf: 0 });
    expect(contributions(score).every((part) => part.value === 0)).toBe(true);
  });
});

describe('chartScale', () => {
  const weights = { acc: 1, cost: 0.6, lat: 0.3, risk: 0.8, hall: 0.9, loss: 0.4, cache: 0.2, vrf: 0.5 };

  it('is the largest side of any candidate, benefits or penalties', () => {
    const strong = scorePlan(estimates, weights);
    const risky = scorePlan({ ...estimates, risk: at(0.9), hallucination: at(0.9), contextLoss: at(0.9) }, weights);
    const side = (score: typeof strong, sign: 1 | -1) => contributions(score).reduce((sum, part) => (Math.sign(part.value) === sign ? sum + Math.abs(part.value) : sum), 0);
    const expected = Math.max(side(strong, 1), side(strong, -1), side(risky, 1), side(risky, -1));
    expect(chartScale([strong, risky])).toBeCloseTo(expected, 12);
    expect(chartScale([strong, risky])).toBeGreaterThan(chartScale([strong]) - 1e-12);
  });

  it('never divides by zero', () => {
    expect(chartScale([])).toBeGreaterThan(0);
  });
});
