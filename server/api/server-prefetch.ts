/**
 * tRPC for server components: a page prefetches a procedure's query while it renders and hands the
 * result to the browser with `<HydrationBoundary state={dehydrate(queryClient)}>`; the client
 * component's `useQuery(trpc.x.queryOptions(...))` then finds the data under the same key instead
 * of asking again (a second round trip of ≈250–350 ms for a 200-node plan on the build machine).
 *
 * The server-side calls go through the router itself, with the context the /api/trpc handler
 * builds (createRequestContext): same principal, same role check, same error mapping. A query that
 * fails is not dehydrated, so the client query asks again and shows the failure as it always has
 * (signed out → "sign in required"); only "no such record" is answered here, with the not-found page.
 */
import { QueryClient, type QueryKey } from '@tanstack/react-query';
import { TRPCError } from '@trpc/server';
import { createTRPCOptionsProxy } from '@trpc/tanstack-react-query';
import { headers } from 'next/headers';
import { cache } from 'react';
import type { ApiContext } from './init';
import { createRequestContext } from './request-context';
import { appRouter, type AppRouter } from './root-router';

/** Server-side queries: no retry (a missing run stays missing; the client retries what it wants). */
export function createServerQueryClient(): QueryClient {
  return new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: 10_000 } } });
}

/** The options proxy over the router itself, for a given context (tests pass one; pages use serverTRPC). */
export function createServerTRPC(context: () => Promise<ApiContext>, queryClient: QueryClient) {
  return createTRPCOptionsProxy<AppRouter>({ router: appRouter, ctx: context, queryClient });
}

/**
 * One query client and proxy per request (React's `cache` is scoped to a server render), so
 * generateMetadata and the page share what they fetched and no user's data outlives their request.
 */
export const serverTRPC = cache(() => {
  const queryClient = createServerQueryClient();
  const trpc = createServerTRPC(async () => createRequestContext(await headers()), queryClient);
  return { queryClient, trpc };
});

/** True when a prefetched query failed because the record does not exist (the runtime's NOT_FOUND). */
export function prefetchedNotFound(queryClient: QueryClient, queryKey: QueryKey): boolean {
  const error = queryClient.getQueryState(queryKey)?.error;
  return error instanceof TRPCError && error.code === 'NOT_FOUND';
}
