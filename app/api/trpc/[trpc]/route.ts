import { fetchRequestHandler } from '@trpc/server/adapters/fetch';
import { appRouter } from '@/server/api/root-router';
import { getRuntime } from '@/server/services/runtime-instance';

// PGlite needs Node APIs (fs, WASM from node_modules), and every call reads live runtime state.
export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

function handler(request: Request) {
  return fetchRequestHandler({
    endpoint: '/api/trpc',
    req: request,
    router: appRouter,
    createContext: () => ({ runtime: getRuntime }),
  });
}

export { handler as GET, handler as POST };
