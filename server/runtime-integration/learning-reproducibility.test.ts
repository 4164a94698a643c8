import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openRuntimeFixture, type RuntimeFixture } from '../testing/runtime-fixture';

// The default config (learning on, plan cache on), one embedded runtime with the demo corpus.
let fixture: RuntimeFixture;
const GOAL = 'Explain why deployment checkout-api failed';

beforeAll(async () => {
  fixture = await openRuntimeFixture();
}, 120_000);

afterAll(async () => {
  await fixture?.close();
});

describe('learning on by default, and reproducible plans (issues 15 and 16.2)', () => {
  it('runs the same request 20 times: every run not marked as an exploration has the same plan hash, and explorations stay within the budget', async () => {
    const runs: { planHash: string; explored: boolean; cache: string }[] = [];
    for (let index = 0; index < 20; index++) {
      const result = await fixture.runtime.run({ goal: GOAL });
      expect(result.status).toBe('completed');
      expect(result.explain.learning).toBeDefined();
      runs.push({ planHash: result.explain.planHash, explored: result.explain.learning!.explored, cache: result.explain.planCache.status });
      // Each run is learned from before the next is planned: the worst case for reproducibility.
      await fixture.runtime.learning().drain();
    }
    const greedy = runs.filter((run) => !run.explored);
    expect(new Set(greedy.map((run) => run.planHash)).size).toBe(1);
    expect(runs.filter((run) => run.explored).length).toBeLessThanOrEqual(2);
    // The cache and learning work together: after the first plan, the runs are hits the bandit still decides.
    expect(runs.slice(1).every((run) => run.cache === 'hit')).toBe(true);
    const arms = await fixture.runtime.learning().arms();
    expect(arms.reduce((sum, arm) => sum + arm.pulls, 0)).toBe(20);
  }, 300_000);
});
