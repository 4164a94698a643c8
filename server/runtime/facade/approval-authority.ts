/**
 * Who may decide an approval gate. The API lets only approvers reach the decision at all; this is
 * the rule behind it, in the runtime so every surface (tRPC, CLI, a future worker) applies it:
 * the decider holds the role the gate names, and nobody approves a run they started — a gate that
 * its own asker can pass is no second pair of eyes (issue 12, finding 7).
 */
import type { RunRecord } from '../contracts/run-store';
import { ContextRuntimeError } from '../errors';
import type { Principal } from '../types';

/**
 * The ranked roles, lowest first: a higher one satisfies a gate naming a lower one (an admin may
 * pass an approver's gate). The same list as server/auth/roles.ts, which the runtime may not
 * import; approval-authority.test.ts holds the two equal.
 */
export const RANKED_ROLES = Object.freeze(['viewer', 'operator', 'approver', 'admin'] as const);

/** True when the principal holds `required` itself or, for a ranked role, one ranked at or above it. */
export function holdsRole(principal: Principal, required: string): boolean {
  if (principal.roles.includes(required)) return true;
  const needed = RANKED_ROLES.indexOf(required as (typeof RANKED_ROLES)[number]);
  if (needed < 0) return false;
  return principal.roles.some((role) => RANKED_ROLES.indexOf(role as (typeof RANKED_ROLES)[number]) >= needed);
}

/** What the principal may decide at a gate: the inbox shows only these buttons, and assertMayDecide refuses the rest. */
export interface DecisionRights {
  readonly approve: boolean;
  readonly reject: boolean;
  /** The principal started the run: approving is someone else's to do. */
  readonly startedByYou: boolean;
}

export function decisionRights(record: Pick<RunRecord, 'user'>, requiredRole: string, principal: Principal): DecisionRights {
  const holds = holdsRole(principal, requiredRole);
  const startedByYou = record.user === principal.user;
  return Object.freeze({ approve: holds && !startedByYou, reject: holds, startedByYou });
}

/**
 * Refuses the decision unless `principal` may make it. Rejecting one's own run stays allowed: it
 * releases nothing, and an asker withdrawing a request needs no second opinion.
 */
export function assertMayDecide(record: RunRecord, requiredRole: string, principal: Principal, decision: 'approved' | 'rejected'): void {
  if (!holdsRole(principal, requiredRole)) {
    throw new ContextRuntimeError('FORBIDDEN', `this gate must be decided by someone with the ${requiredRole} role; ${principal.user} has ${principal.roles.join(', ') || 'no role'}`, {
      field: 'principal',
      details: { runId: record.id, requiredRole },
    });
  }
  if (decision === 'approved' && record.user === principal.user) {
    throw new ContextRuntimeError('FORBIDDEN', `${principal.user} started run ${record.id} and may not approve it: another ${requiredRole} must decide`, {
      field: 'principal',
      details: { runId: record.id },
    });
  }
}
