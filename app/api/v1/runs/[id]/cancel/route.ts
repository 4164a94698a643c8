import { serverV1Context } from '@/server/api/v1/server-v1-context';
import { v1Routes } from '@/server/api/v1/v1-routes';

// PGlite needs Node APIs, and every call reads live runtime state.
export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export async function POST(request: Request, { params }: { params: Promise<{ id: string }> }) {
  return v1Routes.cancelRun.handle(request, serverV1Context, await params);
}
