import { serverV1Context } from '@/server/api/v1/server-v1-context';
import { v1Routes } from '@/server/api/v1/v1-routes';

// PGlite needs Node APIs, and every call reads live runtime state.
export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export const POST = (request: Request) => v1Routes.buildContext.handle(request, serverV1Context, {});
