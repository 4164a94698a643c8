/**
 * Issue 12, finding 8 over HTTP: another site cannot make a signed-in browser start a run (no GET
 * starts one, and a POST from a foreign Origin is refused before any router runs), forwarded
 * headers are believed only from a trusted proxy, and error responses carry no server internals.
 */
import { fetchRequestHandler } from '@trpc/server/adapters/fetch';
import superjson from 'superjson';
import { describe, expect, it, vi } from 'vitest';
import { crossSiteRefusal, pinnedForwardingHeaders } from '../api/request-origin';
import { fakeRuntimePort } from '../api/fake-runtime-port';
import { appRouter } from '../api/root-router';
import type { RuntimePort } from '../api/runtime-port';
import { ContextRuntimeError, invalidInput } from '../runtime/errors';

const OPERATOR = { user: 'ada@example.com', roles: ['operator'] };

/** The app route's order: the origin check, then tRPC. */
async function send(runtime: RuntimePort, request: Request): Promise<Response> {
  return crossSiteRefusal(request, false) ?? fetchRequestHandler({ endpoint: '/api/trpc', req: request, router: appRouter, createContext: async () => ({ runtime: async () => runtime, principal: OPERATOR }) });
}

const post = (path: string, input: unknown, headers: Record<string, string> = {}) =>
  new Request(`http://127.0.0.1:3000/api/trpc/${path}`, { method: 'POST', headers: { host: '127.0.0.1:3000', 'content-type': 'application/json', ...headers }, body: JSON.stringify(superjson.serialize(input)) });

describe('starting a run from another site', () => {
  const starts = () => {
    const run = vi.fn(() => Promise.reject(new Error('a run was started')));
    return { run, runtime: fakeRuntimePort({ run }) };
  };

  it('refuses a POST whose Origin is another site, before the router runs', async () => {
    const { run, runtime } = starts();
    const foreign: Record<string, string>[] = [{ origin: 'https://evil.example' }, { origin: 'null' }, { 'sec-fetch-site': 'cross-site' }];
    for (const headers of foreign) {
      const response = await send(runtime, post('console.start', { goal: 'delete everything' }, headers));
      expect(response.status, JSON.stringify(headers)).toBe(403);
    }
    expect(run).not.toHaveBeenCalled();
  });

  it('lets this site’s own pages and non-browser clients (no Origin) through', () => {
    expect(crossSiteRefusal(post('console.start', {}, { origin: 'http://127.0.0.1:3000' }), false)).toBeUndefined();
    expect(crossSiteRefusal(post('console.start', {}), false)).toBeUndefined();
  });

  it('believes X-Forwarded-Host only when a trusted proxy is configured', () => {
    const behindProxy = post('console.start', {}, { origin: 'https://context.example.com', 'x-forwarded-host': 'context.example.com' });
    expect(crossSiteRefusal(behindProxy, false)?.status).toBe(403);
    expect(crossSiteRefusal(behindProxy, true)).toBeUndefined();
  });

  it('has no GET that starts a run: mutations over GET are refused', async () => {
    const { run, runtime } = starts();
    for (const path of ['console.start', 'runtime.run']) {
      const input = encodeURIComponent(JSON.stringify(superjson.serialize({ goal: 'g' })));
      const response = await send(runtime, new Request(`http://127.0.0.1:3000/api/trpc/${path}?input=${input}`, { headers: { host: '127.0.0.1:3000' } }));
      expect(response.status, path).toBe(405);
    }
    expect(run).not.toHaveBeenCalled();
  });
});

describe('forwarded headers next-auth builds its origin from', () => {
  it('are pinned to the real host unless a trusted proxy sets them', () => {
    const headers = new Headers({ host: '127.0.0.1:3000', 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'https' });
    const pinned = pinnedForwardingHeaders(headers, false)!;
    expect([pinned.get('x-forwarded-host'), pinned.get('x-forwarded-proto')]).toEqual(['127.0.0.1:3000', 'http']);
    expect(pinnedForwardingHeaders(headers, true)).toBeUndefined();
  });
});

describe('error responses', () => {
  const errorOf = async (failure: Error) => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const response = await send(fakeRuntimePort({ run: () => Promise.reject(failure) }), post('runtime.run', { goal: 'g' }));
    log.mockRestore();
    return { status: response.status, text: await response.text() };
  };

  it('carry no details (paths, file positions) with a user error, only its message and field', async () => {
    const { status, text } = await errorOf(invalidInput('path', 'nothing to ingest', { path: '/srv/private/payroll', skipped: [{ path: '/srv/private/payroll/2026.xlsx' }] }));
    expect(status).toBe(400);
    expect(text).toContain('nothing to ingest');
    expect(text).not.toContain('/srv/private');
  });

  it('hide the server’s own configuration errors (database host, file paths) behind a 500', async () => {
    const { status, text } = await errorOf(new ContextRuntimeError('INVALID_CONFIG', 'database: cannot connect to postgres://app:***@db.internal:5432/context: ECONNREFUSED'));
    expect(status).toBe(500);
    expect(text).not.toMatch(/db\.internal|ECONNREFUSED/);
  });
});
