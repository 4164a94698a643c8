/**
 * The HTTP API v1's collaborators in the server: the process-wide runtime and the bearer check
 * (API key or the CLI's service token, server/auth/request-principal.ts). Only a bearer counts: a
 * request carrying just a session cookie is unauthenticated here, so another site cannot make a
 * signed-in browser call the API (the web app's own calls go through /api/trpc and its CSRF check).
 */
import 'server-only';
import { apiKeyStore, authSecret, isServiceToken, userStore } from '../../auth/auth-services';
import { ensureAuthStarted } from '../../auth/auth-startup';
import { resolvePrincipal } from '../../auth/request-principal';
import { getRuntime } from '../../services/runtime-instance';
import type { V1Context } from './v1-endpoint';

export const serverV1Context: V1Context = Object.freeze({
  runtime: getRuntime,
  principal: async (headers: Headers) => {
    if (!headers.get('authorization')) return undefined;
    // Normally done at start (instrumentation.ts); a no-op then.
    await ensureAuthStarted();
    return resolvePrincipal(headers, { secret: authSecret, users: userStore, isServiceToken, apiKeys: apiKeyStore });
  },
});
