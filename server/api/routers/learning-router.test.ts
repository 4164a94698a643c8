import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ContextRuntimeError } from '../../runtime/errors';
import { BANDIT_POLICY, learningSettingsOf } from '../../runtime/learning/bandit-learner';
import type { Principal } from '../../runtime/types';
import { openRuntimeFixture, type RuntimeFixture } from '../../testing/runtime-fixture';
import { createCallerFactory, createTRPCRouter } from '../init';
import { fakeRuntimePort } from '../fake-runtime-port';
import type { LearningPort } from '../runtime-port';
import { learningRouter } from './learning-router';

const createCaller = createCallerFactory(createTRPCRouter({ learning: learningRouter }));

const votes: { runId: string; user: string; thumb: string }[] = [];
const fake: LearningPort = {
  policy: BANDIT_POLICY,
  settings: learningSettingsOf({ enabled: true, alpha: 0.4, top_k_arms: 3, cost_penalty: 0.1, latency_penalty: 0.1, cost_scale_usd: 0.05, latency_scale_seconds: 10 }),
  arms: async () => [{ arm: 'bm25|local|single_shot', pulls: 2, meanReward: 0.5, estimate: { mean: 0.5, bonus: 0.2, upper: 0.7 }, weights: { bias: 0.5 } }],
  feedback: async (runId, { user }, thumb) => {
    if (runId === 'missing') throw new ContextRuntimeError('NOT_FOUND', `run ${runId} does not exist`, { field: 'runId' });
    votes.push({ runId, user, thumb });
    return { up: thumb === 'up' ? 1 : 0, down: thumb === 'down' ? 1 : 0 };
  },
};
const callerAs = (principal?: Principal) => createCaller({ runtime: async () => fakeRuntimePort({ learning: () => fake }), principal });

describe('learning router', () => {
  it('lists the arms to a viewer with the policy settings', async () => {
    const result = await callerAs({ user: 'v', roles: ['viewer'] }).learning.arms();
    expect(result).toMatchObject({ enabled: true, alpha: 0.4, topKArms: 3, arms: [{ arm: 'bm25|local|single_shot', pulls: 2, meanReward: 0.5, estimate: { upper: 0.7 } }] });
    expect(result.policy).toMatch(/^linucb/);
  });

  it('refuses the arms without sign-in', async () => {
    await expect(callerAs().learning.arms()).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
    await expect(callerAs({ user: 'x', roles: ['guest'] }).learning.arms()).rejects.toMatchObject({ code: 'FORBIDDEN' });
  });

  it('records an operator’s vote under the signed-in user, not a user named in the input', async () => {
    const result = await callerAs({ user: 'olga', roles: ['operator'] }).learning.feedback({ runId: ' run-1 ', thumb: 'down' });
    expect(result).toEqual({ runId: 'run-1', thumb: 'down', up: 0, down: 1 });
    expect(votes.at(-1)).toEqual({ runId: 'run-1', user: 'olga', thumb: 'down' });
  });

  it('refuses a vote without sign-in and from a viewer', async () => {
    const before = votes.length;
    await expect(callerAs().learning.feedback({ runId: 'run-1', thumb: 'up' })).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
    await expect(callerAs({ user: 'v', roles: ['viewer'] }).learning.feedback({ runId: 'run-1', thumb: 'up' })).rejects.toMatchObject({ code: 'FORBIDDEN' });
    expect(votes.length).toBe(before);
  });

  it('maps bad input to BAD_REQUEST and an unknown run to NOT_FOUND', async () => {
    const operator = callerAs({ user: 'o', roles: ['admin'] });
    await expect(operator.learning.feedback({ runId: 'run-1', thumb: 'sideways' as 'up' })).rejects.toMatchObject({ code: 'BAD_REQUEST' });
    await expect(operator.learning.feedback({ runId: '   ', thumb: 'up' })).rejects.toMatchObject({ code: 'BAD_REQUEST' });
    await expect(operator.learning.feedback({ runId: 'missing', thumb: 'up' })).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });
});

describe('learning router over the real runtime', () => {
  let fixture: RuntimeFixture;
  beforeAll(async () => {
    fixture = await openRuntimeFixture();
  }, 120_000);
  afterAll(async () => {
    await fixture?.close();
  });

  // The port declares `policy`; the runtime's learning() once left it out and the API sent none.
  it('reports the bandit policy the arms are stored under', async () => {
    const caller = createCaller({ runtime: async () => fixture.runtime, principal: { user: 'v', roles: ['viewer'] } });
    expect((await caller.learning.arms()).policy).toBe(BANDIT_POLICY);
  });
});
