/**
 * How an MCP caller hears of a failure: a runtime error the caller caused keeps its code and the
 * message that names the field ("constraints.max_cost_usd: …"); anything else is the runtime's own
 * failure, logged here and reported without its details (its message may name server paths). The
 * same split as the HTTP API (v1-errors.ts) — restated rather than imported because that mapping
 * lives beside tRPC's `server-only` init, which the stdio server (plain Node) cannot load.
 */
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { ZodError } from 'zod';
import { invalidInput, isContextRuntimeError, type ContextRuntimeError } from '../../runtime/errors';

export const MCP_INTERNAL_MESSAGE = 'internal error; see server log';

/** A zod failure restated as the runtime states bad input: "field: message". */
function fromZodError(error: ZodError): ContextRuntimeError {
  const issue = error.issues[0];
  const field = issue && issue.path.length > 0 ? issue.path.map(String).join('.') : 'arguments';
  return invalidInput(field, issue?.message ?? 'invalid');
}

/**
 * The error a caller may see, or undefined when it is internal. INVALID_CONFIG is the operator's
 * config, not the caller's request: hidden over the network like an internal failure (its message
 * names files), as server/api/init.ts does.
 */
export function userFacingError(error: unknown): ContextRuntimeError | undefined {
  const mapped = error instanceof ZodError ? fromZodError(error) : error;
  if (!isContextRuntimeError(mapped) || !mapped.isUserError || mapped.code === 'INVALID_CONFIG') return undefined;
  return mapped;
}

/** The one line a tool error carries: "CODE: message". */
export function toolErrorText(error: unknown, where: string): string {
  const user = userFacingError(error);
  if (user) return `${user.code}: ${user.message}`;
  console.error(`[mcp] ${where} failed:`, error);
  return `INTERNAL: ${MCP_INTERNAL_MESSAGE}`;
}

/** A resource read's failure as a JSON-RPC error: a caller's mistake is InvalidParams, naming it. */
export function toResourceError(error: unknown, where: string): McpError {
  if (error instanceof McpError) return error;
  const user = userFacingError(error);
  if (user) return new McpError(ErrorCode.InvalidParams, `${user.code}: ${user.message}`, { code: user.code, field: user.field ?? null });
  console.error(`[mcp] ${where} failed:`, error);
  return new McpError(ErrorCode.InternalError, MCP_INTERNAL_MESSAGE);
}
