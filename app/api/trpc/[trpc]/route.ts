import { createRequestContext } from '@/server/api/request-context';
import { apiLimitsOf, handleTrpcRequest } from '@/server/api/trpc-request-limits';
import { getRuntime } from '@/server/services/runtime-instance';

// PGlite needs Node APIs (fs, WASM from node_modules), and every call reads live runtime state.
export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

async function handler(request: Request) {
  return handleTrpcRequest(request, await apiLimitsOf(getRuntime), () => createRequestContext(request.headers));
}

export { handler as GET, handler as POST };
