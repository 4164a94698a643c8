import { describe, expect, it } from 'vitest';
import { overtakeStep, replayBandit, seededRandom, shuffledOrder, worstWindow } from './bandit-replay';

// Two kinds of query: arm 0 wins on "claims" (context [1,0]), arm 1 on "questions" ([1,1]). Each
// fixed arm is right half the time; a contextual bandit learns to be right nearly always.
const items = Array.from({ length: 400 }, (_, index) =>
  index % 2 === 0 ? { group: 'claims', context: [1, 0], rewards: [0.8, 0.3] } : { group: 'questions', context: [1, 1], rewards: [0.2, 0.9] },
);

describe('bandit replay', () => {
  it('shuffles reproducibly from a seed, as a permutation', () => {
    const order = shuffledOrder(50, 7);
    expect(order).toEqual(shuffledOrder(50, 7));
    expect(order).not.toEqual(shuffledOrder(50, 8));
    expect([...order].sort((left, right) => left - right)).toEqual(Array.from({ length: 50 }, (_, index) => index));
  });

  it('learns the context → arm mapping and overtakes both fixed arms', () => {
    const run = replayBandit(items, 2, { alpha: 0.5, order: shuffledOrder(items.length, 1) });
    const last = items.length - 1;
    expect(run.fixed[0][last]).toBeCloseTo(200, 9);
    expect(run.fixed[1][last]).toBeCloseTo(240, 9);
    expect(run.oracle[last]).toBeCloseTo(340, 9);
    expect(run.bandit[last]).toBeGreaterThan(320);
    expect(overtakeStep(run.bandit, run.fixed[1])).toBeLessThan(100);
    // After learning, the choices match the context.
    const tail = shuffledOrder(items.length, 1).slice(-100).map((index, position) => [items[index].group, run.choices[300 + position]]);
    const right = tail.filter(([group, arm]) => (group === 'claims' ? arm === 0 : arm === 1)).length;
    expect(right).toBeGreaterThanOrEqual(95);
  });

  it('chooses only among the allowed arms of each item', () => {
    const restricted = items.map((item) => ({ ...item, rewards: [...item.rewards, 5], allowed: [1, 0] }));
    const run = replayBandit(restricted, 3, { alpha: 0.5, order: shuffledOrder(restricted.length, 2) });
    expect(run.choices.every((arm) => arm !== 2)).toBe(true);
    // The first pick, before any learning, is the first allowed arm.
    expect(run.choices[0]).toBe(1);
  });

  it('with safe exploration, never trails the default plan by more than the margin over any window, and still learns', () => {
    // The default (first allowed) is arm 0; arm 1 is better on questions, arm 2 always poor.
    const mixed = items.map((item) => ({ ...item, rewards: [...item.rewards, 0], allowed: [0, 1, 2] }));
    const order = shuffledOrder(mixed.length, 3);
    const safe = replayBandit(mixed, 3, { alpha: 0.5, order, safety: { margin: 0.05, window: 50, share: 0.2, confidence: 1 } });
    expect(worstWindow(safe.bandit, safe.defaultPlan, 50).gap).toBeGreaterThanOrEqual(-0.05);
    expect(safe.bandit[safe.bandit.length - 1]).toBeGreaterThan(safe.defaultPlan[safe.defaultPlan.length - 1]);
    expect(safe.explored).toBeLessThanOrEqual(0.2 * mixed.length);
  });

  it('sizes safe lower bounds by the estimated reward noise, so a better non-default arm takes over sooner than at σ = 1', () => {
    // One kind of query; the default (arm 0) scores 0.6 ± 0.2 and arm 1 scores 0.07 more, as bm25
    // beat rerank on SciFact at load 25 once rerank's latency term was charged (issue 16.2).
    const draw = seededRandom(11);
    const noisy = Array.from({ length: 1000 }, () => {
      const shared = 0.4 * (draw() - 0.5);
      return { group: 'claims', context: [1, 0], rewards: [0.6 + shared, 0.67 + shared + 0.2 * (draw() - 0.5)], allowed: [0, 1] };
    });
    const order = shuffledOrder(noisy.length, 4);
    const safety = { margin: 0.05, window: 100, share: 0.1, confidence: 1 };
    const scaled = replayBandit(noisy, 2, { alpha: 0.2, order, safety });
    const unit = replayBandit(noisy, 2, { alpha: 0.2, order, safety, unitNoise: true });
    const secondHalf = (run: { choices: readonly number[] }) => run.choices.slice(500).filter((arm) => arm === 1).length;
    expect(secondHalf(scaled)).toBeGreaterThan(450);
    expect(secondHalf(scaled)).toBeGreaterThan(secondHalf(unit));
    const last = noisy.length - 1;
    expect(scaled.bandit[last]).toBeGreaterThan(unit.bandit[last]);
    expect(worstWindow(scaled.bandit, scaled.defaultPlan, 100).gap).toBeGreaterThanOrEqual(-0.05);
  });

  it('finds the worst window of two cumulative curves', () => {
    // Per-step rewards 1,1,0,0,1 against 1,1,1,1,1: the window of two at steps 3–4 is 1 behind per step.
    expect(worstWindow([1, 2, 2, 2, 3], [1, 2, 3, 4, 5], 2)).toEqual({ start: 2, gap: -1 });
  });

  it('reports no overtake when the bandit ends behind, and the last crossing otherwise', () => {
    expect(overtakeStep([1, 2, 3], [1, 2, 4])).toBeUndefined();
    expect(overtakeStep([0, 3, 3, 6], [1, 2, 4, 5])).toBe(4);
    expect(overtakeStep([1, 2, 3], [0, 1, 2])).toBe(1);
  });
});
