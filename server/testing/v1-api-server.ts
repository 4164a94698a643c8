/**
 * The HTTP API v1 on a loopback port for tests: node:http in front of the same route handlers,
 * OpenAPI document and MCP endpoint (/api/mcp) the Next.js route files serve, so tests drive it with a real HTTP client
 * (fetch, an SSE reader) without a `next build`.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import { handleMcpRequest } from '../api/mcp/mcp-http-handler';
import { openApiDocument } from '../api/v1/openapi-document';
import type { V1Context } from '../api/v1/v1-endpoint';
import { type RouteParams, V1_ROUTES } from '../api/v1/v1-routes';
import { listenOnLoopback } from './loopback-http';

const matchers = V1_ROUTES.map((route) => ({ route, pattern: new RegExp(`^${route.path.replace(/\{(\w+)\}/g, '(?<$1>[^/]+)')}$`) }));

function dispatch(request: Request, context: V1Context): Promise<Response> {
  const { pathname } = new URL(request.url);
  if (pathname === '/api/mcp') return handleMcpRequest(request, context);
  if (pathname === '/api/v1/openapi.json' && request.method === 'GET') return Promise.resolve(Response.json(openApiDocument()));
  for (const { route, pattern } of matchers) {
    const match = pattern.exec(pathname);
    if (!match || route.method !== request.method.toLowerCase()) continue;
    const params: RouteParams = Object.fromEntries(Object.entries(match.groups ?? {}).map(([key, value]) => [key, decodeURIComponent(value)]));
    return route.handle(request, context, params);
  }
  return Promise.resolve(Response.json({ error: { code: 'NOT_FOUND', message: 'no such route', field: null } }, { status: 404 }));
}

function toRequest(incoming: IncomingMessage, baseURL: string, signal: AbortSignal): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(incoming.headers)) if (typeof value === 'string') headers.set(name, value);
  const hasBody = incoming.method !== 'GET' && incoming.method !== 'HEAD';
  return new Request(new URL(incoming.url ?? '/', baseURL), { method: incoming.method, headers, signal, ...(hasBody ? { body: Readable.toWeb(incoming) as ReadableStream, duplex: 'half' } : {}) } as RequestInit);
}

async function send(response: Response, outgoing: ServerResponse): Promise<void> {
  outgoing.writeHead(response.status, Object.fromEntries(response.headers));
  if (!response.body) return void outgoing.end();
  const body = Readable.fromWeb(response.body as NodeReadableStream);
  outgoing.on('close', () => body.destroy());
  body.pipe(outgoing);
}

export async function startV1ApiServer(context: V1Context): Promise<{ readonly url: string; close(): Promise<void> }> {
  let origin = '';
  const server = createServer((incoming, outgoing) => {
    const abort = new AbortController();
    outgoing.on('close', () => abort.abort());
    void dispatch(toRequest(incoming, origin, abort.signal), context).then((response) => send(response, outgoing));
  });
  const listening = await listenOnLoopback(server);
  origin = new URL(listening.baseURL).origin;
  return { url: origin, close: () => listening.close() };
}
