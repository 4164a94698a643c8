/**
 * Pages need a session: without a valid session cookie a page visit is redirected to /signin.
 * One place for every page (including ones added later) rather than a check per page. This is the
 * optimistic check Next.js recommends for Proxy (signature and expiry of the JWT only); the rule is
 * enforced again where data is read: every tRPC procedure names its role and re-reads it from the
 * database. APIs are excluded here: they answer 401 themselves instead of redirecting — except
 * that next-auth's routes get X-Forwarded-Host/-Proto pinned to the real host unless a trusted
 * proxy sets them (CONTEXT_RUNTIME_TRUST_PROXY): next-auth builds its origin from them.
 * Every page, the public ones (sign-in, setup) included, gets a fresh script nonce and the
 * Content-Security-Policy naming it: on the request for Next.js to read, on the response for the browser.
 */
import { NextResponse, type NextRequest } from 'next/server';
import { freshNonce, pageContentSecurityPolicy } from './server/api/content-security-policy';
import { pinnedForwardingHeaders } from './server/api/request-origin';
import { refusedResponse } from './server/api/refused-response';
import { publishedAuthSecret, serverEnv } from './server/config/env';
import { sessionEmail } from './server/auth/request-principal';

export async function proxy(request: NextRequest) {
  // A server refused its data directory answers 503 on every page (the API routes check it themselves).
  const refused = refusedResponse(request.nextUrl.pathname.startsWith('/api/') ? 'api' : 'page');
  if (refused) return refused;
  if (request.nextUrl.pathname.startsWith('/api/')) {
    const headers = pinnedForwardingHeaders(request.headers, serverEnv().trustProxy);
    return headers ? NextResponse.next({ request: { headers } }) : NextResponse.next();
  }
  const nonce = freshNonce();
  const policy = pageContentSecurityPolicy(nonce, process.env.NODE_ENV === 'development');
  const headers = new Headers(request.headers);
  headers.set('content-security-policy', policy);
  if (PUBLIC_PAGE.test(request.nextUrl.pathname) || (await signedIn(request))) {
    const response = NextResponse.next({ request: { headers } });
    response.headers.set('content-security-policy', policy);
    return response;
  }
  const target = new URL('/signin', request.url);
  target.searchParams.set('callbackUrl', `${request.nextUrl.pathname}${request.nextUrl.search}`);
  return NextResponse.redirect(target);
}

/** Pages anyone may open: signing in, and the first run's setup (which guards itself). */
const PUBLIC_PAGE = /^\/(?:signin|setup)(?:\/|$)/;

async function signedIn(request: NextRequest): Promise<boolean> {
  // instrumentation.ts pins NEXTAUTH_SECRET (env or the persisted one) before requests are served.
  const secret = publishedAuthSecret();
  return Boolean(secret && (await sessionEmail(request.headers.get('cookie'), secret)));
}

export const config = {
  matcher: ['/api/auth/:path*', '/((?!api/|_next/|favicon\\.ico|icon\\.svg|robots\\.txt).*)'],
};
