/**
 * The Content-Security-Policy of every page (issue 12, finding 8), built per request by proxy.ts.
 * Scripts run only with this response's nonce: Next.js reads the nonce from the request's copy of
 * the header and puts it on its bootstrap and inline scripts, and 'strict-dynamic' lets those load
 * the chunks they need. An injected <script> (or an inline handler) has no nonce, so it never runs.
 * Every page renders per request (the layout's user menu waits for the connection), which a nonce
 * requires: a prerendered page would carry no nonce and never hydrate.
 * Styles keep 'unsafe-inline': components set style attributes, and a style cannot run code.
 */

/** 16 random bytes, base64: unguessable and fresh for every response. */
export function freshNonce(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return btoa(String.fromCharCode(...bytes));
}

export function pageContentSecurityPolicy(nonce: string, development = false): string {
  // `next dev` evaluates code for React's debugging; a production server never needs eval.
  const scripts = `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${development ? " 'unsafe-eval'" : ''}`;
  return [
    "default-src 'self'",
    scripts,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}
