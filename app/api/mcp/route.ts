import { handleMcpRequest } from '@/server/api/mcp/mcp-http-handler';
import { serverV1Context } from '@/server/api/v1/server-v1-context';

// PGlite needs Node APIs, and every call reads live runtime state.
export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

/** MCP Streamable HTTP, with the HTTP API v1's API keys (Authorization: Bearer). */
export const POST = (request: Request) => handleMcpRequest(request, serverV1Context);
export const GET = POST;
export const DELETE = POST;
