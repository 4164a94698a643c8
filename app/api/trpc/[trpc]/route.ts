import { fetchRequestHandler } from '@trpc/server/adapters/fetch';
import { createRequestContext } from '@/server/api/request-context';
import { crossSiteRefusal } from '@/server/api/request-origin';
import { serverEnv } from '@/server/config/env';
import { appRouter } from '@/server/api/root-router';

// PGlite needs Node APIs (fs, WASM from node_modules), and every call reads live runtime state.
export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

function handler(request: Request) {
  // A cookie-authenticated mutation another site made the browser send (CSRF) never reaches a router.
  const refusal = crossSiteRefusal(request, serverEnv().trustProxy);
  if (refusal) return refusal;
  return fetchRequestHandler({
    endpoint: '/api/trpc',
    req: request,
    router: appRouter,
    createContext: () => createRequestContext(request.headers),
  });
}

export { handler as GET, handler as POST };
