import NextAuth from 'next-auth';
import { authOptions } from '@/server/auth/auth-options';

// Credentials are checked against PGlite (Node APIs); sessions are per request.
export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

/** Options are built per request: the secret may be generated on first start, after module load. */
function handler(request: Request, context: { params: Promise<{ nextauth: string[] }> }) {
  return NextAuth(authOptions())(request, context);
}

export { handler as GET, handler as POST };
