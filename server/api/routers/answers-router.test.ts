/**
 * Reading runs under source permissions, over the real runtime (embedded PGlite, demo corpus) with a
 * policy that keeps demo-logs to admins: a viewer's recent answers leave out the runs
 * that read it, an operator's own waiting run shows on approvals.mine without its draft, and an
 * approver whose roles may not read a source does not see a gate over it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunResult } from '../../runtime/explain/explain-types';
import type { Principal } from '../../runtime/types';
import { openRuntimeFixture, type RuntimeFixture } from '../../testing/runtime-fixture';
import { createCallerFactory, createTRPCRouter } from '../init';
import { answersRouter } from './answers-router';
import { approvalsRouter } from './approvals-router';

const DEMO_GOAL = 'Explain why deployment checkout-api failed';
const HIGH_RISK_GOAL = 'Roll back the production deployment of checkout-api and delete the failed replica set';
const RESTRICTED = 'demo-logs';
const createCaller = createCallerFactory(createTRPCRouter({ answers: answersRouter, approvals: approvalsRouter }));
let fixture: RuntimeFixture;
const runs: Record<'adminAnswer' | 'operatorAnswer' | 'operatorGated' | 'otherGated' | 'adminGated', RunResult> = {} as never;

const OLGA: Principal = { user: 'olga', roles: ['operator'] };
const as = (principal?: Principal) => createCaller({ runtime: async () => fixture.runtime, ...(principal ? { principal } : {}) });

beforeAll(async () => {
  fixture = await openRuntimeFixture({ config: { policy: { source_roles: { [RESTRICTED]: ['admin'] } } } });
  const run = (goal: string, principal: Principal) => fixture.runtime.run({ goal, principal });
  runs.adminAnswer = await run(DEMO_GOAL, { user: 'root', roles: ['admin'] });
  runs.operatorAnswer = await run(DEMO_GOAL, OLGA);
  runs.operatorGated = await run(HIGH_RISK_GOAL, OLGA);
  runs.otherGated = await run(HIGH_RISK_GOAL, { user: 'omar', roles: ['operator'] });
  runs.adminGated = await run(HIGH_RISK_GOAL, { user: 'root', roles: ['admin'] });
}, 120_000);

afterAll(async () => {
  await fixture?.close();
});

describe('the runs the fixture made', () => {
  it('read the restricted source only when the asker may', () => {
    expect(runs.adminAnswer.explain.selectedSources).toContain(RESTRICTED);
    expect(runs.adminGated.explain.selectedSources).toContain(RESTRICTED);
    expect(runs.operatorAnswer.explain.selectedSources).not.toContain(RESTRICTED);
    expect(runs.operatorAnswer.status).toBe('completed');
    expect([runs.operatorGated.status, runs.otherGated.status, runs.adminGated.status]).toEqual(['awaiting_approval', 'awaiting_approval', 'awaiting_approval']);
  });
});

describe('answers.recent', () => {
  it('gives a viewer the answers of runs over sources a viewer may read, with goal, answer and citations', async () => {
    const answers = await as({ user: 'vic', roles: ['viewer'] }).answers.recent();
    expect(answers.map((answer) => answer.runId)).toEqual([runs.operatorAnswer.runId]);
    const [answer] = answers;
    expect(answer).toMatchObject({ goal: DEMO_GOAL, user: 'olga', answer: runs.operatorAnswer.answer, citations: runs.operatorAnswer.citations });
    expect(answer!.citations.length).toBeGreaterThan(0);
  });

  it('gives an admin every completed answer, newest first, and never a paused draft', async () => {
    const answers = await as({ user: 'root', roles: ['admin'] }).answers.recent({ limit: 10 });
    expect(answers.map((answer) => answer.runId)).toEqual([runs.operatorAnswer.runId, runs.adminAnswer.runId]);
    expect((await as({ user: 'root', roles: ['admin'] }).answers.recent({ limit: 1 })).map((answer) => answer.runId)).toEqual([runs.operatorAnswer.runId]);
  });

  it('refuses a signed-out caller and one with no role, and names a bad limit', async () => {
    await expect(as().answers.recent()).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
    await expect(as({ user: 'nobody', roles: [] }).answers.recent()).rejects.toMatchObject({ code: 'FORBIDDEN' });
    await expect(as({ user: 'vic', roles: ['viewer'] }).answers.recent({ limit: 0 })).rejects.toMatchObject({ code: 'BAD_REQUEST', message: expect.stringContaining('limit') });
  });
});

describe('approvals.mine and the inbox under source permissions', () => {
  it("shows an operator their own waiting run, gate and reason included, without the draft", async () => {
    const mine = await as(OLGA).approvals.mine();
    expect(mine.map((entry) => entry.run.runId)).toEqual([runs.operatorGated.runId]);
    const [entry] = mine;
    expect(entry).toMatchObject({ user: 'olga', gate: { nodeId: 'approve', approverRole: 'approver' }, draftWithheld: true });
    expect(entry).not.toHaveProperty('draft');
    expect(entry!.run.answer).toBeUndefined();
    expect(JSON.stringify(entry)).not.toContain('"draft"');
  });

  it("never shows one operator another's waiting run, and refuses viewers", async () => {
    expect((await as({ user: 'omar', roles: ['operator'] }).approvals.mine()).map((entry) => entry.run.runId)).toEqual([runs.otherGated.runId]);
    expect(await as({ user: 'nina', roles: ['operator'] }).approvals.mine()).toEqual([]);
    await expect(as({ user: 'vic', roles: ['viewer'] }).approvals.mine()).rejects.toMatchObject({ code: 'FORBIDDEN' });
  });

  it('lists for an approver only the gated runs over sources their roles may read; an admin sees all', async () => {
    const approverInbox = await as({ user: 'alice', roles: ['approver'] }).approvals.inbox();
    expect(approverInbox.map((entry) => entry.run.runId).sort()).toEqual([runs.operatorGated.runId, runs.otherGated.runId].sort());
    const adminInbox = await as({ user: 'root', roles: ['admin'] }).approvals.inbox();
    expect(adminInbox.map((entry) => entry.run.runId).sort()).toEqual([runs.operatorGated.runId, runs.otherGated.runId, runs.adminGated.runId].sort());
    // The admin's own waiting run shows on their "mine" too (they may read its sources).
    expect((await as({ user: 'root', roles: ['admin'] }).approvals.mine()).map((entry) => entry.run.runId)).toEqual([runs.adminGated.runId]);
  });
});
