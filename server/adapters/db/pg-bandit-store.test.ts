import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openRuntimeFixture, type RuntimeFixture } from '../../testing/runtime-fixture';
import { ContextRuntime } from '../../runtime';
import { BANDIT_POLICY } from '../../runtime/learning/bandit-learner';
import type { BanditStorePort } from '../../runtime/learning/bandit-store';
import { FEATURE_DIMENSION } from '../../runtime/learning/intent-features';
import { freshArm, updateArm } from '../../runtime/learning/lin-ucb';
import { renderExplainTree } from '../../runtime/explain/explain-tree';
import { PgBanditStore } from './pg-bandit-store';

// One real runtime (embedded PGlite, demo corpus) for the whole file: an open costs seconds.
let fixture: RuntimeFixture;
const GOAL = 'Explain why deployment checkout-api failed';
/** The voter: an operator, who may read the run's sources (no policy restricts them here). */
const ANN = { user: 'ann', roles: ['operator'] } as const;

beforeAll(async () => {
  fixture = await openRuntimeFixture({ config: { learning: { enabled: true, alpha: 0.5, top_k_arms: 3 } } });
}, 120_000);

afterAll(async () => {
  await fixture?.close();
});

describe('PgBanditStore', () => {
  it('round-trips an arm and its decision, filtered by policy and dimension', async () => {
    const store = new PgBanditStore(fixture.database);
    const context = [1, 0, 1];
    const arm = { ...updateArm(freshArm('bm25|local|single_shot', 3), context, 0.7), contextSum: context };
    await store.saveObservation('test-policy', arm, { runId: 'r-store', policy: 'test-policy', arm: arm.arm, context, explored: true, judgedQuality: 0.8, penalty: 0.1, reward: 0.7 });
    const [loaded] = await store.loadArms('test-policy', 3);
    expect(loaded).toEqual(arm);
    expect(await store.loadArms('test-policy', 4)).toEqual([]);
    expect(await store.loadArms('other-policy', 3)).toEqual([]);
    expect(await store.decisionOf('r-store')).toMatchObject({ arm: arm.arm, context, explored: true, reward: 0.7 });
    expect(await store.decisionOf('missing')).toBeUndefined();
    // Written again (a vote corrected the reward): both rows replaced, not duplicated.
    const corrected = { ...arm, rewardSum: 0.2 };
    await store.saveObservation('test-policy', corrected, { runId: 'r-store', policy: 'test-policy', arm: arm.arm, context, explored: true, judgedQuality: 0.8, penalty: 0.1, reward: 0.2 });
    expect(await store.loadArms('test-policy', 3)).toEqual([corrected]);
    expect(await store.decisionOf('r-store')).toMatchObject({ reward: 0.2, judgedQuality: 0.8 });
  });

  it('reads whether a run was observed and its votes in one answer', async () => {
    const store = new PgBanditStore(fixture.database);
    expect(await store.observationStateOf('r-unseen')).toEqual({ decided: false, feedback: { up: 0, down: 0 } });
    await store.recordFeedback('r-unseen', 'ann', 'up');
    await store.recordFeedback('r-unseen', 'bob', 'down');
    await store.recordFeedback('r-unseen', 'cy', 'down');
    expect(await store.observationStateOf('r-unseen')).toEqual({ decided: false, feedback: { up: 1, down: 2 } });
    expect(await store.observationStateOf('r-store')).toEqual({ decided: true, feedback: { up: 0, down: 0 } });
  });

  it('writes the arm and the decision whole or not at all', async () => {
    const store = new PgBanditStore(fixture.database);
    const context = [1, 0, 1];
    const arm = { ...updateArm(freshArm('atomic-arm', 3), context, 0.5), contextSum: context };
    // A decision the table refuses (an explored flag that is no boolean) fails the statement: the arm is not written either.
    await expect(store.saveObservation('atomic-policy', arm, { runId: 'r-atomic', policy: 'atomic-policy', arm: arm.arm, context, explored: 'maybe' as unknown as boolean, judgedQuality: 0.5, penalty: 0, reward: 0.5 })).rejects.toThrow();
    expect(await store.loadArms('atomic-policy', 3)).toEqual([]);
    expect(await store.decisionOf('r-atomic')).toBeUndefined();
  });

  it('keeps one vote per person and run, changing it on a second vote', async () => {
    const store = new PgBanditStore(fixture.database);
    expect(await store.recordFeedback('r-votes', 'ann', 'up')).toEqual({ up: 1, down: 0 });
    expect(await store.recordFeedback('r-votes', 'bob', 'down')).toEqual({ up: 1, down: 1 });
    expect(await store.recordFeedback('r-votes', 'ann', 'down')).toEqual({ up: 0, down: 2 });
    expect(await store.feedbackOf('nobody-voted')).toEqual({ up: 0, down: 0 });
  });
});

describe('the learning loop in the runtime', () => {
  let runId = '';

  it('answers before the learning write happens, then records the decision off-path', async () => {
    const real = new PgBanditStore(fixture.database);
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let writes = 0;
    const gated: BanditStorePort = {
      loadArms: (policy, dimension) => real.loadArms(policy, dimension),
      decisionOf: (id) => real.decisionOf(id),
      observationStateOf: (id) => real.observationStateOf(id),
      recordFeedback: (id, user, thumb) => real.recordFeedback(id, user, thumb),
      feedbackOf: (id) => real.feedbackOf(id),
      saveObservation: async (policy, arm, decision) => {
        await gate;
        writes += 1;
        await real.saveObservation(policy, arm, decision);
      },
    };
    const runtime = ContextRuntime.create({ ...fixture.plugins, banditStore: gated }, fixture.runtime.config);
    const result = await runtime.run({ goal: GOAL });
    expect(result.status).toBe('completed');
    expect(result.explain.learning).toMatchObject({ policy: BANDIT_POLICY, candidateId: result.explain.chosen.id, explored: false });
    expect(result.explain.learning!.estimate.bonus).toBeGreaterThan(0);
    // Learning and the plan cache work together: the first plan is a miss that keeps its arms.
    expect(result.explain.planCache.status).toBe('miss');
    expect(result.explain.learningArms?.[0].candidate.candidate.id).toBe(result.explain.learning!.optimizerCandidateId);
    expect(renderExplainTree(result.explain)).toMatch(/Bandit: arm .+, estimate -?\d\.\d{3} \+ bonus \d\.\d{3}/);
    // The run has returned; the update is still waiting behind the gate.
    expect(writes).toBe(0);
    expect(await real.decisionOf(result.runId)).toBeUndefined();
    release();
    await runtime.learning().drain();
    expect(writes).toBe(1);
    const decision = await real.decisionOf(result.runId);
    expect(decision).toMatchObject({ arm: result.explain.learning!.arm, policy: BANDIT_POLICY });
    expect(decision!.context).toHaveLength(FEATURE_DIMENSION);
    runId = result.runId;

    // A hit is still a decision: the bandit chooses among the cached arms, and the run teaches it.
    const again = await runtime.run({ goal: GOAL });
    expect(again.explain.planCache.status).toBe('hit');
    expect(again.explain.learning).toMatchObject({ policy: BANDIT_POLICY, candidateId: again.explain.chosen.id });
    await runtime.learning().drain();
    expect(await real.decisionOf(again.runId)).toMatchObject({ arm: again.explain.learning!.arm, policy: BANDIT_POLICY });
  }, 90_000);

  it('applies a thumbs-down to the run’s reward and says NOT_FOUND for an unknown run', async () => {
    const before = (await new PgBanditStore(fixture.database).decisionOf(runId))!;
    const tally = await fixture.runtime.learning().feedback(runId, ANN, 'down');
    expect(tally).toEqual({ up: 0, down: 1 });
    await fixture.runtime.learning().drain();
    const after = (await new PgBanditStore(fixture.database).decisionOf(runId))!;
    expect(after.reward).toBeCloseTo(0.5 * before.judgedQuality - before.penalty, 12);
    await expect(fixture.runtime.learning().feedback('no-such-run', ANN, 'up')).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(fixture.runtime.learning().feedback(runId, ANN, 'sideways' as 'up')).rejects.toMatchObject({ code: 'INVALID_INPUT', field: 'thumb' });
  }, 30_000);

  it('reloads the learned arms after a restart', async () => {
    const arms = await fixture.runtime.learning().arms();
    const learned = arms.find((arm) => arm.pulls > 0)!;
    expect(learned).toBeDefined();
    fixture = await fixture.restart();
    const reloaded = await fixture.runtime.learning().arms();
    expect(reloaded.find((arm) => arm.arm === learned.arm)).toEqual(learned);
    const result = await fixture.runtime.explain({ goal: GOAL });
    expect(result.learning?.arms.find((arm) => arm.arm === learned.arm)?.pulls).toBe(learned.pulls);
  }, 120_000);
});
