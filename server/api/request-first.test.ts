import { describe, expect, it } from 'vitest';
import { requestsInFlight } from '../runtime/scheduler/request-priority';
import { createTRPCRouter, viewerProcedure, type ApiContext } from './init';

/** A query is a request for its whole length (an ingest waits); a mutation (the ingest itself) is not. */
const router = createTRPCRouter({
  page: viewerProcedure.query(async () => {
    await new Promise((resolve) => setTimeout(resolve, 5));
    return requestsInFlight();
  }),
  ingest: viewerProcedure.mutation(() => requestsInFlight()),
});

const context = {
  principal: { user: 'viewer@example.com', roles: ['viewer'] },
  runtime: () => Promise.reject(new Error('not used')),
  accounts: () => Promise.reject(new Error('not used')),
} as unknown as ApiContext;

describe('API requests before background work', () => {
  it('counts a query as a request in flight until it answers, and a mutation not at all', async () => {
    const caller = router.createCaller(context);
    expect(await caller.page()).toBe(1);
    expect(await caller.ingest()).toBe(0);
    expect(requestsInFlight()).toBe(0);
  });
});
