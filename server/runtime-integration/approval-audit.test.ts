/**
 * Issue 12, finding 7: who may pass a gate, and an audit log that keeps what was decided. Each
 * test failed on the code before the fix: the starter could approve their own run, a gate's
 * approverRole was never checked, the log showed the goal joined from the mutable `runs` row, and
 * nothing could tell a rewritten row from an original one.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ContextRuntimeError } from '../runtime/errors';
import { openRuntimeFixture, type RuntimeFixture } from '../testing/runtime-fixture';

const HIGH_RISK_GOAL = 'Roll back the production deployment of checkout-api and delete the failed replica set';
const carol = { user: 'carol', roles: ['approver'] };
const dave = { user: 'dave', roles: ['approver'] };
let fixture: RuntimeFixture;

const caught = (promise: Promise<unknown>): Promise<ContextRuntimeError> =>
  promise.then(
    () => {
      throw new Error('expected the call to throw');
    },
    (error: unknown) => error as ContextRuntimeError,
  );

beforeAll(async () => {
  fixture = await openRuntimeFixture();
});

afterAll(async () => {
  await fixture?.close();
});

describe('deciding a gate', () => {
  it('refuses an approver approving a run they started, and lets another approver decide it', async () => {
    const own = await fixture.runtime.run({ goal: HIGH_RISK_GOAL, principal: carol });
    expect(own.status).toBe('awaiting_approval');
    const refused = await caught(fixture.runtime.approve(own.runId, 'approve', 'approved', carol, 'mine, fine'));
    expect([refused.code, refused.field]).toEqual(['FORBIDDEN', 'principal']);
    expect(refused.message).toMatch(/carol started run .* and may not approve it/);
    expect(await fixture.count('approval_audit')).toBe(0);
    expect((await fixture.runtime.getRun(own.runId)).run.status).toBe('awaiting_approval');
    expect((await fixture.runtime.approve(own.runId, 'approve', 'approved', dave, 'checked')).status).toBe('completed');
  });

  it("enforces the gate's required role: an operator or viewer principal is refused even when called directly", async () => {
    const run = await fixture.runtime.run({ goal: HIGH_RISK_GOAL, principal: carol });
    // The run's own starter, who may read it, holding a lower role: the gate's role is what refuses.
    for (const roles of [['operator'], ['viewer'], []]) {
      const refused = await caught(fixture.runtime.approve(run.runId, 'approve', 'approved', { user: 'carol', roles }, ''));
      expect(refused.code).toBe('FORBIDDEN');
      expect(refused.message).toContain('the approver role');
    }
    // Someone else below the role cannot even see another user's paused run (runtime/access): not found.
    expect((await caught(fixture.runtime.approve(run.runId, 'approve', 'approved', { user: 'eve', roles: ['operator'] }, ''))).code).toBe('NOT_FOUND');
    // A higher ranked role satisfies the gate.
    expect((await fixture.runtime.approve(run.runId, 'approve', 'rejected', { user: 'root', roles: ['admin'] }, 'no')).status).toBe('rejected');
  });
});

describe('the approval log', () => {
  it('shows the goal as it was decided, even after the runs row is changed', async () => {
    const [entry] = await fixture.runtime.approvalLog({ limit: 1 });
    expect(entry).toMatchObject({ goal: HIGH_RISK_GOAL, by: 'root', runUser: 'carol', requiredRole: 'approver', decision: 'rejected' });
    await fixture.database.query(sql`update runs set goal = 'Print the weather' where id = ${entry!.runId}`);
    const [after] = await fixture.runtime.approvalLog({ limit: 1 });
    expect(after!.goal).toBe(HIGH_RISK_GOAL);
  });

  it('is hash-chained: verify passes on the written log and names a row the owner rewrote', async () => {
    const intact = await fixture.runtime.verifyApprovalLog();
    expect(intact).toMatchObject({ rows: 2, intact: true, problems: [] });
    expect(intact.head).toMatch(/^[0-9a-f]{64}$/);
    const [newest, oldest] = await fixture.runtime.approvalLog({ limit: 2 });
    expect(newest!.rowHash).toBe(intact.head);
    // The owner of the table can lift its trigger; the chain is what still shows the rewrite.
    await fixture.database.exec(`ALTER TABLE approval_audit DISABLE TRIGGER approval_audit_no_rewrite;
      UPDATE approval_audit SET decision = 'approved', decided_by = 'mallory' WHERE id = ${oldest!.id};
      ALTER TABLE approval_audit ENABLE TRIGGER approval_audit_no_rewrite;`);
    const broken = await fixture.runtime.verifyApprovalLog();
    expect(broken.intact).toBe(false);
    expect(broken.problems).toEqual([{ id: oldest!.id, problem: 'its fields no longer match its hash (the row was changed)' }]);
  });

  it('notices a removed row by the broken link of the row after it', async () => {
    const [newest, oldest] = await fixture.runtime.approvalLog({ limit: 2 });
    await fixture.database.exec(`ALTER TABLE approval_audit DISABLE TRIGGER approval_audit_no_rewrite;
      DELETE FROM approval_audit WHERE id = ${oldest!.id};
      ALTER TABLE approval_audit ENABLE TRIGGER approval_audit_no_rewrite;`);
    const broken = await fixture.runtime.verifyApprovalLog();
    expect(broken.problems.map((problem) => problem.id)).toEqual([newest!.id]);
    expect(broken.problems[0]!.problem).toMatch(/a row was removed, inserted or reordered/);
  });
});
