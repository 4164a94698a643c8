/**
 * Every route of the HTTP API v1 (enumerated from the route table, so a route added later is
 * covered): without a credential it answers 401, with the role just below its own 403 — both
 * before the runtime is reached or the body read.
 */
import { describe, expect, it } from 'vitest';
import { ROLES } from '../../auth/roles';
import type { Principal } from '../../runtime/types';
import type { V1Context } from './v1-endpoint';
import { V1_ROUTES } from './v1-routes';

const contextAs = (principal: Principal | undefined): V1Context => ({
  runtime: () => Promise.reject(new Error('the runtime was reached before the role check')),
  principal: async () => principal,
});

const requestFor = (method: string) => new Request('http://127.0.0.1/api/v1/x', { method: method.toUpperCase(), ...(method === 'post' ? { body: '{"goal":"x"}' } : {}) });

describe('authorization of every v1 route', () => {
  it.each(V1_ROUTES.map((route) => [`${route.method.toUpperCase()} ${route.path}`, route] as const))('%s', async (_name, route) => {
    const anonymous = await route.handle(requestFor(route.method), contextAs(undefined), { id: 'run-1' });
    expect(anonymous.status).toBe(401);
    expect(await anonymous.json()).toMatchObject({ error: { code: 'UNAUTHORIZED' } });
    const rank = ROLES.indexOf(route.role);
    if (rank === 0) return;
    const below = await route.handle(requestFor(route.method), contextAs({ user: 'k', roles: [ROLES[rank - 1]!] }), { id: 'run-1' });
    expect(below.status).toBe(403);
    expect(await below.json()).toMatchObject({ error: { code: 'FORBIDDEN', message: `requires the ${route.role} role` } });
  });

  it('lets no roleless principal through', async () => {
    for (const route of V1_ROUTES) expect((await route.handle(requestFor(route.method), contextAs({ user: 'k', roles: [] }), { id: 'run-1' })).status).toBe(403);
  });
});
