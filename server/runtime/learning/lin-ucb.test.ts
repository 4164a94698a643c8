import { describe, expect, it } from 'vitest';
import { chooseArm, correctReward, estimateArm, freshArm, updateArm } from './lin-ucb';

/** Solves M·θ = v by Gauss–Jordan: the reference the Sherman–Morrison updates must match. */
function solve(matrix: number[][], vector: number[]): number[] {
  const n = vector.length;
  const rows = matrix.map((row, index) => [...row, vector[index]]);
  for (let pivot = 0; pivot < n; pivot++) {
    const best = rows.slice(pivot).reduce((top, row, offset) => (Math.abs(row[pivot]) > Math.abs(rows[top][pivot]) ? pivot + offset : top), pivot);
    [rows[pivot], rows[best]] = [rows[best], rows[pivot]];
    for (let row = 0; row < n; row++) {
      if (row === pivot) continue;
      const factor = rows[row][pivot] / rows[pivot][pivot];
      for (let column = pivot; column <= n; column++) rows[row][column] -= factor * rows[pivot][column];
    }
  }
  return rows.map((row, index) => row[n] / row[index]);
}

const observations: [number[], number][] = [
  [[1, 0, 1], 0.9],
  [[1, 1, 0], 0.1],
  [[1, 0.5, 0.5], 0.4],
  [[1, 0, 1], 0.8],
  [[1, 1, 0.2], 0.2],
];

describe('LinUCB arm', () => {
  it('keeps A⁻¹ and θ equal to the ridge solution (I + ΣxxT)⁻¹ Σ r·x', () => {
    let state = freshArm('a', 3);
    for (const [context, reward] of observations) state = updateArm(state, context, reward);
    const matrix = [0, 1, 2].map((row) => [0, 1, 2].map((column) => (row === column ? 1 : 0) + observations.reduce((sum, [x]) => sum + x[row] * x[column], 0)));
    const vector = [0, 1, 2].map((row) => observations.reduce((sum, [x, reward]) => sum + reward * x[row], 0));
    const theta = solve(matrix, vector);
    const probe = [1, 0.3, 0.7];
    const estimate = estimateArm(state, probe, 0);
    expect(estimate.mean).toBeCloseTo(theta.reduce((sum, value, index) => sum + value * probe[index], 0), 10);
    // A⁻¹·A = I
    for (let row = 0; row < 3; row++) for (let column = 0; column < 3; column++) {
      const product = [0, 1, 2].reduce((sum, k) => sum + state.inverse[row * 3 + k] * matrix[k][column], 0);
      expect(product).toBeCloseTo(row === column ? 1 : 0, 10);
    }
    expect(state.pulls).toBe(5);
    expect(state.rewardSum).toBeCloseTo(2.4, 12);
  });

  it('starts at mean 0 with bonus α‖x‖ and narrows the bonus as the context is seen', () => {
    const context = [1, 0, 1];
    const fresh = estimateArm(freshArm('a', 3), context, 0.5);
    expect(fresh.mean).toBe(0);
    expect(fresh.bonus).toBeCloseTo(0.5 * Math.SQRT2, 12);
    let state = freshArm('a', 3);
    let previous = fresh.bonus;
    for (let pull = 0; pull < 4; pull++) {
      state = updateArm(state, context, 1);
      const next = estimateArm(state, context, 0.5).bonus;
      expect(next).toBeLessThan(previous);
      previous = next;
    }
    // An unseen direction keeps most of its width.
    expect(estimateArm(state, [0, 1, 0], 0.5).bonus).toBeCloseTo(0.5, 12);
  });

  it('corrects a counted reward exactly: same as having observed the new reward', () => {
    const [first, second] = observations;
    const corrected = correctReward(updateArm(updateArm(freshArm('a', 3), first[0], first[1]), second[0], second[1]), first[0], 0.1 - first[1]);
    const direct = updateArm(updateArm(freshArm('a', 3), first[0], 0.1), second[0], second[1]);
    expect(estimateArm(corrected, [1, 0.2, 0.9], 0.3).upper).toBeCloseTo(estimateArm(direct, [1, 0.2, 0.9], 0.3).upper, 12);
    expect(corrected.pulls).toBe(2);
    expect(corrected.rewardSum).toBeCloseTo(direct.rewardSum, 12);
  });

  it('rejects a context of the wrong dimension', () => {
    expect(() => estimateArm(freshArm('a', 3), [1, 0], 1)).toThrow(/2 features/);
  });
});

describe('chooseArm', () => {
  const estimate = (arm: string, mean: number, bonus: number) => ({ arm, mean, bonus, upper: mean + bonus });

  it('plays the highest upper bound and flags exploration when another arm had the better mean', () => {
    const result = chooseArm([estimate('a', 0.6, 0.05), estimate('b', 0.4, 0.4)]);
    expect(result.chosen.arm).toBe('b');
    expect(result.greedy.arm).toBe('a');
    expect(result.explored).toBe(true);
  });

  it('breaks ties by the given order (the optimizer rank), so an untrained bandit agrees with PlanScore', () => {
    const result = chooseArm([estimate('first', 0, 0.5), estimate('second', 0, 0.5)]);
    expect(result.chosen.arm).toBe('first');
    expect(result.explored).toBe(false);
  });

  it('needs at least one arm', () => {
    expect(() => chooseArm([])).toThrow(RangeError);
  });
});
