/**
 * The adapter over a ContextRuntime in this process, acting as one principal. The role a call needs
 * is the one its HTTP API v1 route needs (the adapter's test holds the two equal; the route table
 * itself is not imported: it pulls in the tRPC setup, which refuses to load outside Next.js); the
 * sources are the runtime's own check (policy and the principal's source scope), as for every surface.
 */
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

/** POST /api/v1/explain, /build-context and /runs: planning and running are an operator's. */
export const REQUIRED_ROLES: Readonly<{ plan: Role; buildContext: Role; run: Role }> = Object.freeze({ plan: 'operator', buildContext: 'operator', run: 'operator' });

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
    async plan(goal) {
      requireRole(principal, REQUIRED_ROLES.plan);
      const { planHash, selectedSources, rejectedSources } = await runtime.explain({ ...goal, principal });
      return { planHash, selectedSources, rejectedSources };
    },
    async buildContext({ tokenBudget, ...goal }) {
      requireRole(principal, REQUIRED_ROLES.buildContext);
      return runtime.contextFor({ ...goal, principal }, tokenBudget === undefined ? {} : { tokenBudget });
    },
    async run(goal) {
      requireRole(principal, REQUIRED_ROLES.run);
      return runAnswerOf(await runtime.run({ ...goal, principal }));
    },
  };
}
