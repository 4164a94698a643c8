/**
 * Pages need a session: without a valid session cookie a page visit is redirected to /signin.
 * One place for every page (including ones added later) rather than a check per page. This is the
 * optimistic check Next.js recommends for Proxy (signature and expiry of the JWT only); the rule is
 * enforced again where data is read: every tRPC procedure names its role and re-reads it from the
 * database. APIs are excluded here: they answer 401 themselves instead of redirecting.
 */
import { NextResponse, type NextRequest } from 'next/server';
import { publishedAuthSecret } from './server/config/env';
import { sessionEmail } from './server/auth/request-principal';

export async function proxy(request: NextRequest) {
  // instrumentation.ts pins NEXTAUTH_SECRET (env or the persisted one) before requests are served.
  const secret = publishedAuthSecret();
  const email = secret ? await sessionEmail(request.headers.get('cookie'), secret) : undefined;
  if (email) return NextResponse.next();
  const target = new URL('/signin', request.url);
  target.searchParams.set('callbackUrl', `${request.nextUrl.pathname}${request.nextUrl.search}`);
  return NextResponse.redirect(target);
}

export const config = {
  matcher: ['/((?!api/|_next/|signin|setup|favicon\\.ico|icon\\.svg|robots\\.txt).*)'],
};
