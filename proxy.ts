/**
 * Pages need a session: without a valid session cookie a page visit is redirected to /signin.
 * One place for every page (including ones added later) rather than a check per page. This is the
 * optimistic check Next.js recommends for Proxy (signature and expiry of the JWT only); the rule is
 * enforced again where data is read: every tRPC procedure names its role and re-reads it from the
 * database. APIs are excluded here: they answer 401 themselves instead of redirecting — except
 * that next-auth's routes get X-Forwarded-Host/-Proto pinned to the real host unless a trusted
 * proxy sets them (CONTEXT_RUNTIME_TRUST_PROXY): next-auth builds its origin from them.
 */
import { NextResponse, type NextRequest } from 'next/server';
import { pinnedForwardingHeaders } from './server/api/request-origin';
import { publishedAuthSecret, serverEnv } from './server/config/env';
import { sessionEmail } from './server/auth/request-principal';

export async function proxy(request: NextRequest) {
  if (request.nextUrl.pathname.startsWith('/api/')) {
    const headers = pinnedForwardingHeaders(request.headers, serverEnv().trustProxy);
    return headers ? NextResponse.next({ request: { headers } }) : NextResponse.next();
  }
  // instrumentation.ts pins NEXTAUTH_SECRET (env or the persisted one) before requests are served.
  const secret = publishedAuthSecret();
  const email = secret ? await sessionEmail(request.headers.get('cookie'), secret) : undefined;
  if (email) return NextResponse.next();
  const target = new URL('/signin', request.url);
  target.searchParams.set('callbackUrl', `${request.nextUrl.pathname}${request.nextUrl.search}`);
  return NextResponse.redirect(target);
}

export const config = {
  matcher: ['/api/auth/:path*', '/((?!api/|_next/|signin|setup|favicon\\.ico|icon\\.svg|robots\\.txt).*)'],
};
