import { refusedResponse } from '@/server/api/refused-response';
import { createRequestContext } from '@/server/api/request-context';
import { crossSiteRefusal } from '@/server/api/request-origin';
import { apiLimitsOf, handleTrpcRequest } from '@/server/api/trpc-request-limits';
import { serverEnv } from '@/server/config/env';
import { getRuntime } from '@/server/services/runtime-instance';

// PGlite needs Node APIs (fs, WASM from node_modules), and every call reads live runtime state.
export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

async function handler(request: Request) {
  // Refused its data directory: nothing below may run (it would open the database or sign-in).
  const refused = refusedResponse('api');
  if (refused) return refused;
  // A cookie-authenticated mutation another site made the browser send (CSRF) never reaches a router.
  const refusal = crossSiteRefusal(request, serverEnv().trustProxy);
  if (refusal) return refusal;
  return handleTrpcRequest(request, await apiLimitsOf(getRuntime), () => createRequestContext(request.headers));
}

export { handler as GET, handler as POST };
