/**
 * MCP over Streamable HTTP (POST /api/mcp), stateless: each request gets its own server and
 * transport for the caller its `Authorization: Bearer` key resolves to — the HTTP API v1's keys
 * and check (V1Context), never a session cookie. Answers are JSON rather than an event stream: no
 * tool reports progress, and a stateless server has nothing to push (so GET, the server-to-client
 * stream, and DELETE, the end of a session, are 405).
 */
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { CLI_PRINCIPAL } from '../../auth/request-principal';
import type { V1Context } from '../v1/v1-endpoint';
import { MCP_INTERNAL_MESSAGE } from './mcp-errors';
import { createMcpServer } from './mcp-server';

/** JSON-RPC's "server error" range: the codes the SDK itself answers transport failures with. */
const UNAUTHORIZED_CODE = -32001;
const NOT_ALLOWED_CODE = -32000;
const INTERNAL_CODE = -32603;

function jsonRpcError(status: number, code: number, message: string, headers: HeadersInit = {}): Response {
  return Response.json({ jsonrpc: '2.0', error: { code, message }, id: null }, { status, headers });
}

export async function handleMcpRequest(request: Request, context: V1Context): Promise<Response> {
  if (request.method !== 'POST') return jsonRpcError(405, NOT_ALLOWED_CODE, 'this MCP endpoint is stateless: send each JSON-RPC message as a POST', { allow: 'POST' });
  try {
    const principal = await context.principal(request.headers);
    if (!principal) {
      return jsonRpcError(401, UNAUTHORIZED_CODE, 'an API key is required: send Authorization: Bearer <key> (an admin creates keys under Admin → API keys)', { 'www-authenticate': 'Bearer' });
    }
    const runtime = await context.runtime();
    // The CLI's service token (a stdio bridge on the server's machine) names no person.
    const server = createMcpServer({ runtime: async () => runtime, principal, impersonal: principal.user === CLI_PRINCIPAL.user });
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
      // The HTTP API's body limit: a bigger body is refused (413) before it is parsed.
      maxRequestBodySize: runtime.config.limits.api.max_body_bytes,
    });
    await server.connect(transport);
    try {
      return await transport.handleRequest(request);
    } finally {
      await server.close();
    }
  } catch (error) {
    console.error('[api/mcp] request failed:', error);
    return jsonRpcError(500, INTERNAL_CODE, MCP_INTERNAL_MESSAGE);
  }
}
