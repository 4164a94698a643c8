import NextAuth from 'next-auth';
import { refusedResponse } from '@/server/api/refused-response';
import { authOptions } from '@/server/auth/auth-options';
import { ensureAuthStarted } from '@/server/auth/auth-startup';

// Credentials are checked against PGlite (Node APIs); sessions are per request.
export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

/** Options are built per request: the secret may be generated on first start, after module load. */
async function handler(request: Request, context: { params: Promise<{ nextauth: string[] }> }) {
  // Refused its data directory: no sign-in database, no signing secret written beside it.
  const refused = refusedResponse('api');
  if (refused) return refused;
  // Normally done at start (instrumentation.ts); creates the first admin if the runtime opened late.
  await ensureAuthStarted();
  return NextAuth(authOptions())(request, context);
}

export { handler as GET, handler as POST };
