/**
 * The one context creator for a request: the /api/trpc route handler and server components that
 * prefetch through tRPC (server/api/server-prefetch.ts) both build the caller's context here, so a
 * page rendered on the server sees exactly the principal and the rules a browser's tRPC call would.
 */
import { accounts, apiKeyStore, authSecret, isServiceToken, userStore } from '../auth/auth-services';
import { ensureAuthStarted } from '../auth/auth-startup';
import { resolvePrincipal } from '../auth/request-principal';
import { getRuntime } from '../services/runtime-instance';
import type { ApiContext } from './init';

export async function createRequestContext(headers: Headers): Promise<ApiContext> {
  // Normally done at start (instrumentation.ts); a no-op then.
  await ensureAuthStarted();
  return {
    runtime: getRuntime,
    accounts,
    // Session cookie, the CLI's service token or an API key; undefined → every non-public procedure answers 401.
    principal: await resolvePrincipal(headers, { secret: authSecret, users: userStore, isServiceToken, apiKeys: apiKeyStore }),
  };
}
