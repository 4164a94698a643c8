import { describe, expect, it } from 'vitest';
import { seededRandom } from './bandit-replay';
import { REWARD_NOISE_PRIOR, RewardNoise } from './reward-noise';

describe('RewardNoise', () => {
  it('starts at the prior σ₀, the largest σ a score in [0, 1] can have', () => {
    expect(new RewardNoise().sigma()).toBeCloseTo(REWARD_NOISE_PRIOR.sigma, 12);
  });

  it('converges to the errors\' root mean square as observations outweigh the prior', () => {
    const noise = new RewardNoise();
    const random = seededRandom(5);
    // Uniform errors on [−0.5, 0.5]: σ = 1/√12 ≈ 0.289.
    for (let step = 0; step < 20_000; step++) noise.observe(random() - 0.5);
    expect(noise.sigma()).toBeGreaterThan(0.28);
    expect(noise.sigma()).toBeLessThan(0.3);
    expect(noise.status().observations).toBe(20_000);
  });

  it('weighs the prior as `weight` observations, and ignores non-finite errors', () => {
    const noise = new RewardNoise({ sigma: 1, weight: 3 });
    noise.observe(0);
    noise.observe(Number.NaN);
    expect(noise.sigma()).toBeCloseTo(Math.sqrt(3 / 4), 12);
  });
});
