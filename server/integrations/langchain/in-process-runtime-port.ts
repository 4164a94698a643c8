/**
 * The adapter over a ContextRuntime in this process, acting as one principal. The role a call needs
 * is the one its HTTP API v1 route needs (read from the route table, so the two cannot drift); the
 * sources are the runtime's own check (policy and the principal's source scope), as for every surface.
 */
import { v1Routes } from '../../api/v1/v1-routes';
import { rankOf, ROLES, type Role } from '../../auth/roles';
import type { ContextRuntime, Principal } from '../../runtime';
import type { RunResult } from '../../runtime/explain/explain-types';
import { ContextRuntimeError } from '../../runtime/errors';
import type { ContextRuntimePort, RunAnswer } from './context-runtime-port';

function requireRole(principal: Principal, role: Role): void {
  if (rankOf(principal.roles) < ROLES.indexOf(role)) {
    throw new ContextRuntimeError('FORBIDDEN', `requires the ${role} role (${principal.user} has ${principal.roles.join(', ') || 'none'})`);
  }
}

export function runAnswerOf(result: RunResult): RunAnswer {
  return {
    runId: result.runId,
    status: result.status,
    ...(result.answer === undefined ? {} : { answer: result.answer }),
    citations: result.citations.map(({ ref, chunkId, sourceName, locator, quote }) => ({ ref, chunkId, sourceName, ...(locator ? { locator } : {}), ...(quote ? { quote } : {}) })),
    caveats: result.caveats,
    planHash: result.explain.planHash,
    rejectedSources: result.explain.rejectedSources ?? [],
    ...(result.pendingApproval ? { pendingApproval: result.pendingApproval } : {}),
    ...(result.error ? { error: result.error } : {}),
  };
}

export function inProcessRuntimePort(runtime: ContextRuntime, principal: Principal): ContextRuntimePort {
  return {
    via: 'this process',
    async buildContext({ tokenBudget, ...goal }) {
      requireRole(principal, v1Routes.buildContext.role);
      return runtime.contextFor({ ...goal, principal }, tokenBudget === undefined ? {} : { tokenBudget });
    },
    async run(goal) {
      requireRole(principal, v1Routes.runs.role);
      return runAnswerOf(await runtime.run({ ...goal, principal }));
    },
  };
}
