/**
 * A decision recorded at a gate is never lost with the process that recorded it (issue 13: "no
 * approved gate is lost"). approve() writes the decision, then resumes the run; a process killed
 * between the two left the run paused at a decided gate, where approving again is a CONFLICT.
 * The next start's recovery resumes it under the recorded decision.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunResult } from '../runtime/explain/explain-types';
import { openRuntimeFixture, type RuntimeFixture } from '../testing/runtime-fixture';

const HIGH_RISK_GOAL = 'Roll back the production deployment of checkout-api and delete the failed replica set';
let fixture: RuntimeFixture;
let approved: RunResult;
let rejected: RunResult;
let undecided: RunResult;

/** What approve() has done when its process dies right after the audit row commits. */
async function decisionWithoutResume(run: RunResult, decision: 'approved' | 'rejected', by: string): Promise<void> {
  await fixture.plugins.runStore.recordDecision(run.runId, { nodeId: 'approve', decision, by, comment: 'decided before the crash', at: new Date().toISOString(), requiredRole: 'approver' });
}

describe('a gate decided just before the process died (embedded PGlite)', () => {
  beforeAll(async () => {
    fixture = await openRuntimeFixture();
    [approved, rejected, undecided] = [await fixture.runtime.run({ goal: HIGH_RISK_GOAL }), await fixture.runtime.run({ goal: HIGH_RISK_GOAL }), await fixture.runtime.run({ goal: HIGH_RISK_GOAL })];
    for (const run of [approved, rejected, undecided]) expect(run.status).toBe('awaiting_approval');
    await decisionWithoutResume(approved, 'approved', 'alice');
    await decisionWithoutResume(rejected, 'rejected', 'bob');
    fixture = await fixture.restart();
  }, 60_000);

  afterAll(async () => {
    await fixture?.close();
  });

  it('the next start resumes each decided gate under its decision; an undecided gate keeps waiting', async () => {
    const recovered = await fixture.runtime.recoverRuns();
    expect(new Map(recovered.map((run) => [run.runId, run.status]))).toEqual(new Map([[approved.runId, 'completed'], [rejected.runId, 'rejected']]));
    const after = await fixture.runtime.getRun(approved.runId);
    expect(after.run.status).toBe('completed');
    expect(after.run.answer?.trim().length ?? 0).toBeGreaterThan(0);
    expect((await fixture.runtime.getRun(rejected.runId)).run).toMatchObject({ status: 'rejected', answer: undefined });
    expect((await fixture.runtime.getRun(undecided.runId)).run).toMatchObject({ status: 'awaiting_approval', pendingApproval: { nodeId: 'approve' } });
  }, 60_000);

  it('each decision is recorded once, and the undecided gate can still be decided', async () => {
    const decisions = await fixture.plugins.runStore.listDecisions!({ limit: 10 });
    expect(decisions.map((row) => [row.runId, row.decision]).sort()).toEqual([[approved.runId, 'approved'], [rejected.runId, 'rejected']].sort());
    expect(await fixture.runtime.recoverRuns()).toEqual([]);
    const result = await fixture.runtime.approve(undecided.runId, 'approve', 'approved', { user: 'alice', roles: ['approver'] }, 'ok');
    expect(result.status).toBe('completed');
  }, 60_000);
});
