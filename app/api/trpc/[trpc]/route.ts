import { fetchRequestHandler } from '@trpc/server/adapters/fetch';
import { appRouter } from '@/server/api/root-router';
import { accounts, authSecret, isServiceToken, userStore } from '@/server/auth/auth-services';
import { ensureAuthStarted } from '@/server/auth/auth-startup';
import { resolvePrincipal } from '@/server/auth/request-principal';
import { getRuntime } from '@/server/services/runtime-instance';

// PGlite needs Node APIs (fs, WASM from node_modules), and every call reads live runtime state.
export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

function handler(request: Request) {
  return fetchRequestHandler({
    endpoint: '/api/trpc',
    req: request,
    router: appRouter,
    createContext: async () => {
      // Normally done at start (instrumentation.ts); a no-op then.
      await ensureAuthStarted();
      return {
        runtime: getRuntime,
        accounts,
        // Session cookie or the CLI's bearer token; undefined → every non-public procedure answers 401.
        principal: await resolvePrincipal(request.headers, { secret: authSecret, users: userStore, isServiceToken }),
      };
    },
  });
}

export { handler as GET, handler as POST };
