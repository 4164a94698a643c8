/**
 * Server-side prefetch through tRPC's options proxy, over the real runtime (embedded PGlite, demo
 * corpus): a run read on the server lands under the very key the browser's
 * `useQuery(trpc.runtime.getRun.queryOptions(...))` looks up, so hydrating it answers the client
 * query without a request; the role rule is the router's own (signed out, no role and unknown ids
 * are not dehydrated, and only NOT_FOUND turns into the not-found page).
 */
import { dehydrate, hydrate, QueryClient } from '@tanstack/react-query';
import { createTRPCClient, httpBatchLink } from '@trpc/client';
import { createTRPCOptionsProxy } from '@trpc/tanstack-react-query';
import superjson from 'superjson';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunResult } from '../runtime/explain/explain-types';
import type { Principal } from '../runtime/types';
import { openRuntimeFixture, type RuntimeFixture } from '../testing/runtime-fixture';
import type { AppRouter } from './root-router';
import type { RuntimePort } from './runtime-port';
import { createServerQueryClient, createServerTRPC, prefetchedNotFound } from './server-prefetch';

let fixture: RuntimeFixture;
let incident: RunResult;

/** A page render's prefetch as `principal`: the server query client and the getRun options it used. */
async function prefetchRunAs(principal: Principal | undefined, runId: string) {
  const queryClient = createServerQueryClient();
  const trpc = createServerTRPC(async () => ({ runtime: async () => fixture.runtime as unknown as RuntimePort, ...(principal ? { principal } : {}) }), queryClient);
  const options = trpc.runtime.getRun.queryOptions({ runId });
  await queryClient.prefetchQuery(options);
  return { queryClient, notFound: prefetchedNotFound(queryClient, options.queryKey), state: dehydrate(queryClient) };
}

/** The browser's options proxy (as components/providers/trpc-provider.tsx builds it); it never sends a request here. */
function browserTRPC(queryClient: QueryClient) {
  const client = createTRPCClient<AppRouter>({ links: [httpBatchLink({ url: 'http://127.0.0.1:9/api/trpc', transformer: superjson })] });
  return createTRPCOptionsProxy<AppRouter>({ client, queryClient });
}

beforeAll(async () => {
  fixture = await openRuntimeFixture();
  incident = await fixture.runtime.run({ goal: 'Explain why deployment checkout-api failed', principal: { user: 'ana', roles: ['operator'] } });
});

afterAll(async () => {
  await fixture?.close();
});

describe('server-side prefetch', () => {
  it("puts a viewer's run under the browser query's key, so hydration answers it without a request", async () => {
    const { notFound, state } = await prefetchRunAs({ user: 'vic', roles: ['viewer'] }, incident.runId);
    expect(notFound).toBe(false);
    const browser = new QueryClient();
    hydrate(browser, state);
    const key = browserTRPC(browser).runtime.getRun.queryOptions({ runId: incident.runId }).queryKey;
    const hydrated = browser.getQueryData(key);
    expect(hydrated?.run.runId).toBe(incident.runId);
    expect(hydrated?.run.explain.graph.nodes.length).toBe(incident.explain.graph.nodes.length);
    expect(browser.getQueryState(key)?.status).toBe('success');
  });

  it('answers an unknown run id with not-found and dehydrates nothing', async () => {
    const { notFound, state } = await prefetchRunAs({ user: 'vic', roles: ['viewer'] }, 'run-that-does-not-exist');
    expect(notFound).toBe(true);
    expect(state.queries).toEqual([]);
  });

  it('leaves signed-out and role-less callers to the client query (401/403 as a tRPC call), never not-found', async () => {
    for (const principal of [undefined, { user: 'nobody', roles: [] }]) {
      const { queryClient, notFound, state } = await prefetchRunAs(principal, incident.runId);
      expect(notFound).toBe(false);
      expect(state.queries).toEqual([]);
      const [query] = queryClient.getQueryCache().getAll();
      expect(query?.state.error).toMatchObject({ code: principal ? 'FORBIDDEN' : 'UNAUTHORIZED' });
    }
  });
});
