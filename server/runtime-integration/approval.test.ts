/**
 * Human approval of a high-risk goal across a restart: the run pauses at its approval gate, the
 * process goes away, a new runtime on the same data directory resumes it from the stored outcomes.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ContextRuntimeError } from '../runtime/errors';
import type { RunResult } from '../runtime/explain/explain-types';
import { openRuntimeFixture, type RuntimeFixture } from '../testing/runtime-fixture';

const HIGH_RISK_GOAL = 'Roll back the production deployment of checkout-api and delete the failed replica set';
const alice = { user: 'alice', roles: ['approver'] };
const bob = { user: 'bob', roles: ['admin'] };
let fixture: RuntimeFixture;
let toApprove: RunResult;
let toReject: RunResult;

async function caught(promise: Promise<unknown>): Promise<ContextRuntimeError> {
  try {
    await promise;
  } catch (error) {
    return error as ContextRuntimeError;
  }
  throw new Error('expected the call to throw');
}

describe('approval gate survives a restart (embedded PGlite)', () => {
  beforeAll(async () => {
    fixture = await openRuntimeFixture();
    toApprove = await fixture.runtime.run({ goal: HIGH_RISK_GOAL });
    toReject = await fixture.runtime.run({ goal: HIGH_RISK_GOAL });
  });

  afterAll(async () => {
    await fixture?.close();
  });

  it('pauses a high-risk goal at the approve node without releasing an answer', () => {
    for (const run of [toApprove, toReject]) {
      expect(run.status).toBe('awaiting_approval');
      expect(run.pendingApproval?.nodeId).toBe('approve');
      expect(run.pendingApproval?.reason).toMatch(/high-risk/);
      expect(run.answer).toBeUndefined();
      expect(run.explain.intent.classes).toContain('high_risk');
      expect(run.explain.verificationPlan.approval).toBe(true);
    }
    expect(toReject.runId).not.toBe(toApprove.runId);
  });

  it('after a restart, approving resumes the stored run to completion with an answer', async () => {
    const stepsBefore = toApprove.explain.analyze!.nodes.filter((node) => node.status === 'done').map((node) => node.nodeId);
    fixture = await fixture.restart();
    const reloaded = await fixture.runtime.getRun(toApprove.runId);
    expect(reloaded.run.status).toBe('awaiting_approval');
    expect(reloaded.run.pendingApproval?.nodeId).toBe('approve');

    const approved = await fixture.runtime.approve(toApprove.runId, 'approve', 'approved', alice, 'ok');
    expect(approved.status).toBe('completed');
    expect(approved.answer?.trim().length ?? 0).toBeGreaterThan(0);
    expect(approved.citations.length).toBeGreaterThan(0);
    expect(approved.pendingApproval).toBeUndefined();
    const nodes = approved.explain.analyze!.nodes;
    // Every node ran but the retry attempt, which the passing verification gate skipped.
    expect(nodes.filter((node) => node.status !== 'done').every((node) => node.status === 'skipped' && node.nodeId.includes('-retry'))).toBe(true);
    expect(nodes.find((node) => node.nodeId === 'approve')?.status).toBe('done');
    // Resuming does not re-run what finished before the pause: those outcomes come from the store.
    const attempts = await fixture.database.query<{ node_id: string; attempts: number }>(sql`select node_id, attempts from run_nodes where run_id = ${toApprove.runId}`);
    for (const nodeId of stepsBefore) expect(attempts.find((row) => row.node_id === nodeId)?.attempts, nodeId).toBe(1);
    expect((await fixture.runtime.getRun(toApprove.runId)).run.status).toBe('completed');
  });

  it('stores the paused run’s passages as chunk references; resuming and the evidence read their text back', async () => {
    const stored = await fixture.database.query<{ outcome: { output: { items?: { hit: { chunkId: string; text?: string } }[] } } }>(
      sql`select outcome from run_nodes where run_id = ${toApprove.runId} and node_id = 'assemble'`,
    );
    const storedItems = stored[0]?.outcome.output.items ?? [];
    expect(storedItems.length).toBeGreaterThan(0);
    for (const item of storedItems) expect(item.hit.text, item.hit.chunkId).toBeUndefined();
    const evidence = await fixture.runtime.evidence(toApprove.runId);
    expect(evidence.map((item) => item.hit.chunkId)).toEqual(storedItems.map((item) => item.hit.chunkId));
    const bodies = await fixture.database.query<{ id: string; body: string }>(
      sql`select id, body from chunks where id in (select jsonb_array_elements_text(${JSON.stringify(evidence.map((item) => item.hit.chunkId))}::jsonb))`,
    );
    for (const item of evidence) {
      const body = bodies.find((row) => row.id === item.hit.chunkId)?.body;
      expect(body?.length ?? 0, item.hit.chunkId).toBeGreaterThan(0);
      expect(item.hit.text).toBe(body);
      if (!item.compressed) expect(item.text).toBe(body);
    }
  });

  it('a second decision on the same gate is a CONFLICT and changes nothing', async () => {
    const auditBefore = await fixture.count('approval_audit');
    const error = await caught(fixture.runtime.approve(toApprove.runId, 'approve', 'approved', alice, 'again'));
    expect(error.code).toBe('CONFLICT');
    expect(error.message).toContain(toApprove.runId);
    expect(await fixture.count('approval_audit')).toBe(auditBefore);
    expect((await fixture.runtime.getRun(toApprove.runId)).run.status).toBe('completed');
  });

  it('rejects bad decisions before touching the run', async () => {
    expect((await caught(fixture.runtime.approve(toReject.runId, 'reason', 'approved', alice))).code).toBe('CONFLICT');
    expect((await caught(fixture.runtime.approve('no-such-run', 'approve', 'approved', alice))).code).toBe('NOT_FOUND');
    const badDecision = await caught(fixture.runtime.approve(toReject.runId, 'approve', 'maybe' as 'approved', alice));
    expect([badDecision.code, badDecision.field]).toEqual(['INVALID_INPUT', 'decision']);
    const nobody = await caught(fixture.runtime.approve(toReject.runId, 'approve', 'approved', { user: '  ', roles: ['approver'] }));
    expect([nobody.code, nobody.field]).toEqual(['INVALID_INPUT', 'principal']);
    expect((await fixture.runtime.getRun(toReject.runId)).run.status).toBe('awaiting_approval');
  });

  it('rejecting another paused run ends it as rejected, without an answer', async () => {
    const rejected = await fixture.runtime.approve(toReject.runId, 'approve', 'rejected', bob, 'too risky');
    expect(rejected.status).toBe('rejected');
    expect(rejected.answer).toBeUndefined();
    expect(rejected.pendingApproval).toBeUndefined();
    expect((await fixture.runtime.getRun(toReject.runId)).run.status).toBe('rejected');
    expect((await caught(fixture.runtime.approve(toReject.runId, 'approve', 'approved', alice))).code).toBe('CONFLICT');
  });

  it('records every decision in the audit log', async () => {
    const rows = await fixture.database.query<{ run_id: string; node_id: string; decision: string; decided_by: string; comment: string }>(
      sql`select run_id, node_id, decision, decided_by, comment from approval_audit order by id`,
    );
    expect(rows).toEqual([
      { run_id: toApprove.runId, node_id: 'approve', decision: 'approved', decided_by: 'alice', comment: 'ok' },
      { run_id: toReject.runId, node_id: 'approve', decision: 'rejected', decided_by: 'bob', comment: 'too risky' },
    ]);
    const statuses = await fixture.runtime.listRuns({ limit: 10 });
    expect(statuses.find((run) => run.id === toApprove.runId)?.status).toBe('completed');
    expect(statuses.find((run) => run.id === toReject.runId)?.status).toBe('rejected');
  });
});
