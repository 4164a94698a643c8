/**
 * The MCP server, one definition for both transports (stdio: server/cli/mcp-command.ts; Streamable
 * HTTP: mcp-http-handler.ts). It is built per caller: every tool and resource runs as that
 * principal, after the role check the tRPC procedures and HTTP API v1 routes make for the same
 * call, and the runtime applies the principal's source permissions itself.
 */
import { McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult, ReadResourceResult } from '@modelcontextprotocol/sdk/types.js';
import { rankOf, ROLES, type Role } from '../../auth/roles';
import { ContextRuntimeError } from '../../runtime/errors';
import type { Principal } from '../../runtime/types';
import type { RuntimePort } from '../runtime-port';
import { toolErrorText, toResourceError } from './mcp-errors';
import { type McpResource, MCP_RESOURCES, variableOf } from './mcp-resources';
import { type McpTool, MCP_TOOLS } from './mcp-tools';

export interface McpServerContext {
  /** Lazily opens (or reuses) the runtime. */
  readonly runtime: () => Promise<RuntimePort>;
  /** Who every call runs as: the API key's (or the local CLI's) principal. */
  readonly principal: Principal;
  /**
   * True when the principal names no person — the CLI's service token, or the CLI on its own data
   * directory. The app lets such a caller decide a gate only signed in as an account (tRPC
   * runtime.approve, cli-decider.ts); MCP has no password to ask for, so `approve` is refused and
   * the caller is told to connect with an approver's API key.
   */
  readonly impersonal?: boolean;
}

const SERVER_INFO = Object.freeze({ name: 'context-runtime', version: '0.1.0' });

const INSTRUCTIONS =
  'Context Runtime plans and runs goals over your organisation\'s sources with citations. Use `build_context` to get ranked, cited passages for your own model, ' +
  '`simulate` or `explain` to see what a goal would cost and how it would be answered, and `run` to answer it. Runs, traces and the sources you may read are resources.';

function requireRole(principal: Principal, role: Role): void {
  if (rankOf(principal.roles) < ROLES.indexOf(role)) throw new ContextRuntimeError('FORBIDDEN', `requires the ${role} role`);
}

/** Results as JSON text (what every MCP client shows a model) and as structured content. */
function toolResult(result: unknown): CallToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(result) }], structuredContent: result as Record<string, unknown> };
}

function registerTool(server: McpServer, context: McpServerContext, tool: McpTool): void {
  const config = { title: tool.title, description: tool.description, inputSchema: tool.input, annotations: { readOnlyHint: tool.readOnly } };
  server.registerTool(tool.name, config, async (input: unknown): Promise<CallToolResult> => {
    try {
      requireRole(context.principal, tool.role);
      if (tool.asPerson && context.impersonal) {
        throw new ContextRuntimeError('FORBIDDEN', `${tool.name} decides as a person, and this connection acts as the CLI: connect with an approver's API key (--api-key), or use \`context-runtime approve --by EMAIL\``);
      }
      const runtime = await context.runtime();
      return toolResult(await tool.call({ runtime, principal: context.principal, input: input as never }));
    } catch (error) {
      return { content: [{ type: 'text', text: toolErrorText(error, `tool ${tool.name}`) }], isError: true };
    }
  });
}

function registerResource(server: McpServer, context: McpServerContext, resource: McpResource): void {
  const metadata = { title: resource.title, description: resource.description, mimeType: 'application/json' };
  const read = async (uri: URL, variables: Readonly<Record<string, string>>): Promise<ReadResourceResult> => {
    try {
      requireRole(context.principal, 'viewer');
      const result = await resource.read({ runtime: await context.runtime(), principal: context.principal, variables });
      return { contents: [{ uri: uri.href, mimeType: 'application/json', text: JSON.stringify(result, null, 2) }] };
    } catch (error) {
      throw toResourceError(error, `resource ${uri.href}`);
    }
  };
  if (!resource.template) {
    server.registerResource(resource.name, resource.uri, metadata, (uri) => read(uri, {}));
    return;
  }
  const { list } = resource;
  const listCallback = list
    ? async () => {
        try {
          requireRole(context.principal, 'viewer');
          return { resources: (await list(await context.runtime(), context.principal)).map((entry) => ({ ...entry, mimeType: 'application/json' })) };
        } catch (error) {
          throw toResourceError(error, `resources/list ${resource.name}`);
        }
      }
    : undefined;
  server.registerResource(resource.name, new ResourceTemplate(resource.uri, { list: listCallback }), metadata, (uri, variables) =>
    read(uri, { runId: variableOf(variables, 'runId') }),
  );
}

export function createMcpServer(context: McpServerContext): McpServer {
  const server = new McpServer(SERVER_INFO, { instructions: INSTRUCTIONS, capabilities: { tools: {}, resources: {} } });
  for (const tool of MCP_TOOLS) registerTool(server, context, tool);
  for (const resource of MCP_RESOURCES) registerResource(server, context, resource);
  return server;
}
