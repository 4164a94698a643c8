/**
 * Which site a request comes from, for the checks a cookie session needs (issue 12, finding 8).
 * A browser attaches the session cookie to a request another site makes it send; what it cannot
 * forge is the Origin header (and Sec-Fetch-Site), so a state-changing request whose Origin is not
 * this server is refused. X-Forwarded-Host/-Proto are believed only when the operator says a proxy
 * of theirs sets them (CONTEXT_RUNTIME_TRUST_PROXY=true): otherwise any client could claim a host.
 */

const FORWARDED = ['x-forwarded-host', 'x-forwarded-proto', 'x-forwarded-port', 'forwarded'] as const;
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** The hosts ("name:port") this request may call its own. */
function ownHosts(headers: Headers, trustProxy: boolean): readonly string[] {
  const hosts = [headers.get('host')];
  if (trustProxy) hosts.push(...(headers.get('x-forwarded-host')?.split(',').map((host) => host.trim()) ?? []));
  return hosts.filter((host): host is string => Boolean(host)).map((host) => host.toLowerCase());
}

/** A 403 for a state-changing request another site made the browser send; undefined when it may go on. */
export function crossSiteRefusal(request: Request, trustProxy: boolean): Response | undefined {
  if (SAFE_METHODS.has(request.method.toUpperCase())) return undefined;
  const origin = request.headers.get('origin');
  const refuse = () =>
    Response.json({ error: { message: 'cross-site request refused: this API accepts changes only from its own pages', code: 'FORBIDDEN' } }, { status: 403 });
  if (origin === null) {
    // No Origin: not a browser (the CLI, curl), or an old one; modern browsers still say where the request came from.
    return request.headers.get('sec-fetch-site') === 'cross-site' ? refuse() : undefined;
  }
  if (!URL.canParse(origin)) return refuse();
  return ownHosts(request.headers, trustProxy).includes(new URL(origin).host.toLowerCase()) ? undefined : refuse();
}

/**
 * Request headers with X-Forwarded-Host/-Proto pinned to what this server saw, unless a trusted proxy
 * set them. next-auth reads them (through next/headers) to build its origin when AUTH_TRUST_HOST is
 * on, so a client-sent "X-Forwarded-Host: evil.example" would otherwise steer its redirects.
 */
export function pinnedForwardingHeaders(headers: Headers, trustProxy: boolean): Headers | undefined {
  if (trustProxy) return undefined;
  const pinned = new Headers(headers);
  for (const name of FORWARDED) pinned.delete(name);
  const host = headers.get('host');
  if (host) pinned.set('x-forwarded-host', host);
  // `next start` serves plain HTTP; TLS in front of it is a proxy, which the operator declares.
  pinned.set('x-forwarded-proto', 'http');
  return pinned;
}
