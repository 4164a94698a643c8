/**
 * What a server refused its data directory answers on every route (issue 13, point 4): 503 with the
 * reason, instead of pages and APIs that would open a second database or rewrite the CLI's token.
 * Free of Node imports: proxy.ts answers pages with it.
 */
import { dataDirRefusal } from '../services/data-dir-refusal';

/** Long enough for a holder's lock to go stale (20 s) without a client hammering meanwhile. */
const RETRY_AFTER_SECONDS = '10';

export function refusedResponse(kind: 'api' | 'page'): Response | undefined {
  const reason = dataDirRefusal();
  if (reason === undefined) return undefined;
  const headers = { 'retry-after': RETRY_AFTER_SECONDS, 'cache-control': 'no-store' };
  if (kind === 'api') {
    return Response.json({ error: { code: 'DATA_DIR_LOCKED', message: `Service unavailable: ${reason}` } }, { status: 503, headers });
  }
  const page = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Service unavailable</title></head><body><h1>Service unavailable</h1><p>${escapeHtml(reason)}</p></body></html>`;
  // No script or style on this page: a policy that allows nothing.
  return new Response(page, { status: 503, headers: { ...headers, 'content-type': 'text/html; charset=utf-8', 'content-security-policy': "default-src 'none'; frame-ancestors 'none'" } });
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
