/**
 * Every procedure of the app router, enumerated (so procedures added later are covered without
 * editing this file): a non-public one must name its role in meta, refuse a caller who is not signed
 * in (UNAUTHORIZED) and refuse the role just below its own (FORBIDDEN), before touching the runtime.
 */
import { TRPCError } from '@trpc/server';
import { describe, expect, it } from 'vitest';
import { ROLES, type Role } from '../auth/roles';
import type { Principal } from '../runtime/types';
import type { ApiContext, ApiMeta } from './init';
import { appRouter } from './root-router';

/** Reachable without signing in: the sign-in/setup flow only. Adding to this list needs a reason. */
const PUBLIC_PROCEDURES: ReadonlySet<string> = new Set(['users.completeSetup']);

interface ProcedureEntry {
  readonly path: string;
  readonly type: string;
  readonly meta: ApiMeta | undefined;
}

function allProcedures(): readonly ProcedureEntry[] {
  const record = appRouter._def.procedures as unknown as Record<string, { _def: { type: string; meta?: ApiMeta } }>;
  return Object.entries(record).map(([path, procedure]) => ({ path, type: procedure._def.type, meta: procedure._def.meta }));
}

/** The runtime and account stores explode if reached: the role check must come first. */
const untouchable: ApiContext = {
  runtime: () => Promise.reject(new Error('the runtime was reached before the role check')),
  accounts: () => Promise.reject(new Error('the account stores were reached before the role check')),
};

async function callAs(path: string, type: string, principal: Principal | undefined): Promise<unknown> {
  const caller = appRouter.createCaller({ ...untouchable, ...(principal ? { principal } : {}) } as ApiContext) as unknown as Record<string, unknown>;
  const procedure = path.split('.').reduce<unknown>((node, key) => (node as Record<string, unknown>)[key], caller) as (input?: unknown) => unknown;
  try {
    const result = await procedure(undefined);
    // Subscriptions resolve to an async iterable; the middleware runs on the first pull.
    if (type === 'subscription' && result && typeof result === 'object' && Symbol.asyncIterator in result) {
      await (result as AsyncIterable<unknown>)[Symbol.asyncIterator]().next();
    }
    return result;
  } catch (error) {
    return error;
  }
}

const procedures = allProcedures();
const guarded = procedures.filter((entry) => !PUBLIC_PROCEDURES.has(entry.path));

describe('authorization of every procedure', () => {
  it('finds the procedures (the enumeration itself works)', () => {
    expect(procedures.map((entry) => entry.path)).toEqual(expect.arrayContaining(['runtime.run', 'runtime.approve', 'knowledge.sources', 'users.create']));
  });

  it('gives every non-public procedure a meta.role, and the allowlisted ones exist', () => {
    const missing = guarded.filter((entry) => !entry.meta?.role || !ROLES.includes(entry.meta.role)).map((entry) => entry.path);
    expect(missing, 'procedures without a role: use viewerProcedure/operatorProcedure/approverProcedure/adminProcedure').toEqual([]);
    for (const path of PUBLIC_PROCEDURES) expect(procedures.map((entry) => entry.path)).toContain(path);
  });

  it.each(guarded.map((entry) => [entry.path, entry] as const))('%s: UNAUTHORIZED when signed out', async (_path, entry) => {
    const error = await callAs(entry.path, entry.type, undefined);
    expect(error).toBeInstanceOf(TRPCError);
    expect(error).toMatchObject({ code: 'UNAUTHORIZED' });
  });

  it.each(guarded.map((entry) => [entry.path, entry] as const))('%s: FORBIDDEN for the role below its own', async (_path, entry) => {
    const needed = entry.meta!.role!;
    const below: readonly Role[] = ROLES.indexOf(needed) === 0 ? [] : [ROLES[ROLES.indexOf(needed) - 1]!];
    const error = await callAs(entry.path, entry.type, { user: 'someone@example.com', roles: below });
    expect(error).toBeInstanceOf(TRPCError);
    expect(error).toMatchObject({ code: 'FORBIDDEN', message: `requires the ${needed} role` });
  });

  it('assigns the roles the issue asks for to the existing routers', () => {
    const roleOf = new Map(procedures.map((entry) => [entry.path, entry.meta?.role]));
    const expected: Record<string, Role> = {
      'runtime.getRun': 'viewer',
      'runtime.listRuns': 'viewer',
      'runtime.statistics': 'viewer',
      'runtime.sources': 'viewer',
      'runtime.run': 'operator',
      'runtime.submit': 'operator',
      'runtime.explain': 'operator',
      'runtime.simulate': 'operator',
      'runtime.ingest': 'admin',
      'runtime.applyRetention': 'admin',
      'runtime.upload': 'operator',
      'console.start': 'operator',
      'console.follow': 'viewer',
      'runtime.approve': 'approver',
      'knowledge.sources': 'viewer',
      'approvals.inbox': 'approver',
      'approvals.mine': 'operator',
      'answers.recent': 'viewer',
      'knowledge.lineage': 'viewer',
      'users.list': 'admin',
      'users.create': 'admin',
      'users.setRoles': 'admin',
      'users.setDisabled': 'admin',
    };
    for (const [path, role] of Object.entries(expected)) expect(roleOf.get(path), path).toBe(role);
  });
});
