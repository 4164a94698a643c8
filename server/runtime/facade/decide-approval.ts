/**
 * Recording a decision at a paused approval gate: the arguments, that the run waits at exactly this
 * gate, and the decider's right to decide it (approval-authority.ts). What follows the decision
 * (resuming in process, or handing the run back to the job queue) is the runtime's.
 */
import type { RunRecord, RunStorePlugin as RunStore } from '../contracts/run-store';
import { ContextRuntimeError, invalidInput } from '../errors';
import type { Principal } from '../types';
import { assertMayDecide } from './approval-authority';
import type { StoredPlan } from './execute-run';
import { assertStorableText, validatePrincipal } from './validate-request';

export type GateDecision = 'approved' | 'rejected';

/** Checked before the run is read: a malformed decision reveals nothing about the run. */
export function validateDecisionInput(decision: unknown, principal: unknown, comment: unknown): Principal {
  if (decision !== 'approved' && decision !== 'rejected') throw invalidInput('decision', `expected "approved" or "rejected", got ${JSON.stringify(decision)}`);
  if (principal === undefined) throw invalidInput('principal', 'expected the signed-in person deciding');
  const decider = validatePrincipal(principal);
  if (typeof comment !== 'string' || comment.length > 4000) throw invalidInput('comment', 'expected a string of at most 4000 characters');
  assertStorableText('comment', comment);
  return decider;
}

/** The audit row records the decider, the role the gate required, and the goal as it is now. */
export async function recordGateDecision(runStore: RunStore, record: RunRecord, nodeId: string, decision: GateDecision, decider: Principal, comment: string): Promise<void> {
  if (record.status !== 'awaiting_approval' || record.pendingNodeId !== nodeId) {
    throw new ContextRuntimeError('CONFLICT', `run ${record.id} is not waiting for approval at node ${nodeId} (status ${record.status}${record.pendingNodeId ? `, waiting at ${record.pendingNodeId}` : ''})`, { field: 'nodeId' });
  }
  const gate = (record.plan as StoredPlan).explain.graph.nodes.find((node) => node.id === nodeId);
  // A gate the stored plan does not describe is still a gate: hold it to the approver role.
  const requiredRole = gate?.kind === 'approve' ? gate.approverRole : 'approver';
  assertMayDecide(record, requiredRole, decider, decision);
  await runStore.recordDecision(record.id, { nodeId, decision, by: decider.user, comment, at: new Date().toISOString(), requiredRole });
}
