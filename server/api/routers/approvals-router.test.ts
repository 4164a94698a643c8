/**
 * The approvals router over the real runtime (embedded PGlite, demo corpus): a high-risk goal pauses
 * at its gate, the inbox explains it, an approver's decision resumes it, the audit log records it.
 * The role rules are checked for every procedure: signed out → UNAUTHORIZED, below → FORBIDDEN.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunResult } from '../../runtime/explain/explain-types';
import type { Principal } from '../../runtime/types';
import { openRuntimeFixture, type RuntimeFixture } from '../../testing/runtime-fixture';
import { createCallerFactory, createTRPCRouter } from '../init';
import { approvalsRouter } from './approvals-router';

const HIGH_RISK_GOAL = 'Roll back the production deployment of checkout-api and delete the failed replica set';
const createCaller = createCallerFactory(createTRPCRouter({ approvals: approvalsRouter }));
let fixture: RuntimeFixture;
let paused: RunResult;
let toReject: RunResult;

const as = (principal?: Principal) => createCaller({ runtime: async () => fixture.runtime, ...(principal ? { principal } : {}) });
const approver = as({ user: 'alice', roles: ['approver'] });
const operator = as({ user: 'olga', roles: ['operator'] });
const viewer = as({ user: 'vic', roles: ['viewer'] });
const signedOut = as();

beforeAll(async () => {
  fixture = await openRuntimeFixture();
  paused = await fixture.runtime.run({ goal: HIGH_RISK_GOAL, principal: { user: 'olga', roles: ['operator'] } });
  toReject = await fixture.runtime.run({ goal: HIGH_RISK_GOAL, principal: { user: 'olga', roles: ['operator'] } });
});

afterAll(async () => {
  await fixture?.close();
});

describe('approvals router roles', () => {
  const decision = () => ({ runId: paused.runId, nodeId: 'approve', decision: 'approved' as const, comment: 'sneaky' });

  it('refuses every procedure to a signed-out caller with UNAUTHORIZED', async () => {
    await expect(signedOut.approvals.inbox()).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
    await expect(signedOut.approvals.decide(decision())).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
    await expect(signedOut.approvals.log()).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
  });

  it('refuses the inbox and decisions below the approver role, and the log to a caller with no role', async () => {
    await expect(operator.approvals.inbox()).rejects.toMatchObject({ code: 'FORBIDDEN' });
    await expect(viewer.approvals.decide(decision())).rejects.toMatchObject({ code: 'FORBIDDEN' });
    await expect(operator.approvals.decide(decision())).rejects.toMatchObject({ code: 'FORBIDDEN' });
    await expect(as({ user: 'nobody', roles: [] }).approvals.log()).rejects.toMatchObject({ code: 'FORBIDDEN' });
    // Nothing was decided by the refused calls.
    expect(await fixture.count('approval_audit')).toBe(0);
  });
});

describe('approvals router behaviour', () => {
  it('lists the paused runs with the gate, why it was gated and what approving releases', async () => {
    const inbox = await approver.approvals.inbox();
    const entry = inbox.find((item) => item.run.runId === paused.runId)!;
    expect(inbox.map((item) => item.run.runId).sort()).toEqual([paused.runId, toReject.runId].sort());
    expect(entry.user).toBe('olga');
    expect(entry.rights).toEqual({ approve: true, reject: true, startedByYou: false });
    expect(entry.gate).toEqual({ nodeId: 'approve', reason: expect.stringMatching(/high-risk/), approverRole: 'approver' });
    expect(entry.why.intentClasses).toContain('high_risk');
    expect(entry.why.rules).toEqual([{ rule: 'intent.high_risk.approval', why: expect.stringMatching(/human approval/) }]);
    expect(entry.why.signals.some((signal) => signal.startsWith('high_risk'))).toBe(true);
    expect(entry.why.policyReasons.join(' ')).toMatch(/high-risk/);
    // The answer is drafted and verified before the gate; approving releases it, nothing runs after.
    expect(entry.draft?.answer.trim().length ?? 0).toBeGreaterThan(0);
    expect(entry.draft?.verification?.method).toBe(paused.explain.chosen.choice.verification);
    expect(entry.after).toEqual([]);
    expect(entry.run.answer).toBeUndefined();
  });

  it('approves as the signed-in approver: the run completes and the log names her with the comment', async () => {
    const result = await approver.approvals.decide({ runId: paused.runId, nodeId: 'approve', decision: 'approved', comment: 'rollback plan reviewed' });
    expect(result.status).toBe('completed');
    expect(result.answer?.trim().length ?? 0).toBeGreaterThan(0);
    const rejected = await as({ user: 'root', roles: ['admin'] }).approvals.decide({ runId: toReject.runId, nodeId: 'approve', decision: 'rejected', comment: 'not now' });
    expect(rejected.status).toBe('rejected');
    expect(rejected.answer).toBeUndefined();

    const log = await approver.approvals.log();
    expect(log.hasMore).toBe(false);
    expect(log.entries.map((entry) => [entry.runId, entry.decision, entry.by, entry.comment])).toEqual([
      [toReject.runId, 'rejected', 'root', 'not now'],
      [paused.runId, 'approved', 'alice', 'rollback plan reviewed'],
    ]);
    expect(log.entries[0].goal).toBe(HIGH_RISK_GOAL);
    expect(Date.parse(log.entries[0].at)).not.toBeNaN();
    expect((await approver.approvals.log({ limit: 1, offset: 0 })).hasMore).toBe(true);
    expect((await approver.approvals.log({ limit: 50, offset: 0, runId: paused.runId })).entries).toHaveLength(1);
    // A viewer reads the decision on a published answer, not on another user's rejected run; its asker reads both.
    expect((await viewer.approvals.log()).entries.map((entry) => entry.runId)).toEqual([paused.runId]);
    expect((await operator.approvals.log()).entries.map((entry) => entry.runId)).toEqual([toReject.runId, paused.runId]);
    expect(await approver.approvals.inbox()).toEqual([]);
  });

  it('answers a second decision with CONFLICT and an unknown run with NOT_FOUND', async () => {
    await expect(approver.approvals.decide({ runId: paused.runId, nodeId: 'approve', decision: 'rejected', comment: '' })).rejects.toMatchObject({ code: 'CONFLICT' });
    await expect(approver.approvals.decide({ runId: 'no-such-run', nodeId: 'approve', decision: 'approved', comment: '' })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(approver.approvals.decide({ runId: paused.runId, nodeId: 'approve', decision: 'maybe' as 'approved', comment: '' })).rejects.toMatchObject({ code: 'BAD_REQUEST' });
    expect(await fixture.count('approval_audit')).toBe(2);
  });
});

describe('approvals router: who may decide (issue 12, finding 7)', () => {
  it('answers an approver deciding their own run with FORBIDDEN and a message naming why', async () => {
    const own = await fixture.runtime.run({ goal: HIGH_RISK_GOAL, principal: { user: 'alice', roles: ['approver'] } });
    // The inbox says so before the click: reject (withdraw) only, because she started it.
    expect((await approver.approvals.inbox()).find((item) => item.run.runId === own.runId)?.rights).toEqual({ approve: false, reject: true, startedByYou: true });
    const refused = approver.approvals.decide({ runId: own.runId, nodeId: 'approve', decision: 'approved', comment: '' });
    await expect(refused).rejects.toMatchObject({ code: 'FORBIDDEN', message: expect.stringContaining('alice started run') });
    // Withdrawing it stays allowed: a rejection releases nothing.
    expect((await approver.approvals.decide({ runId: own.runId, nodeId: 'approve', decision: 'rejected', comment: 'withdrawn' })).status).toBe('rejected');
  });
});
