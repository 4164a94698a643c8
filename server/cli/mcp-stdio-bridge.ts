/**
 * `context-runtime mcp` when a server holds the data (or an API key is given): stdio relayed to
 * the server's Streamable HTTP endpoint (/api/mcp), message by message, with the key or the
 * server's service token as the bearer. The server builds the MCP server for that principal, so
 * the key's role and sources decide exactly as over HTTP, and two processes never open one
 * embedded database. A request the server cannot take is answered here, in the server's terms.
 */
import type { Readable, Writable } from 'node:stream';
import { StreamableHTTPClientTransport, StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

export interface BridgeTarget {
  /** The server's base URL: http://127.0.0.1:3000. */
  readonly url: string;
  /** An API key or the server's service token; undefined = none (the server refuses, and that is said). */
  readonly bearer: string | undefined;
  /** Says what a 401 means for this bearer (an unknown key, a service token not written yet). */
  readonly refused: string;
}

export interface StdioStreams {
  readonly stdin: Readable;
  readonly stdout: Writable;
}

/** The JSON-RPC error a relayed request is answered with when the server did not answer it. */
function failureText(error: unknown, target: BridgeTarget): { code: number; message: string } {
  if (error instanceof StreamableHTTPError && error.code === 401) return { code: -32001, message: target.refused };
  if (error instanceof StreamableHTTPError && error.code !== undefined) return { code: -32603, message: `the server at ${target.url} answered ${error.code}: ${error.message}` };
  return { code: -32603, message: `the server at ${target.url} did not answer (${error instanceof Error ? error.message : String(error)}); check --url or CONTEXT_RUNTIME_URL, or start the server` };
}

const isRequest = (message: JSONRPCMessage): message is JSONRPCMessage & { id: string | number; method: string } => 'id' in message && 'method' in message;

/** Relays until stdin ends; resolves with the exit code. */
export async function bridgeStdioToServer(target: BridgeTarget, streams: StdioStreams): Promise<number> {
  const local = new StdioServerTransport(streams.stdin, streams.stdout);
  const headers: Record<string, string> = target.bearer ? { authorization: `Bearer ${target.bearer}` } : {};
  const remote = new StreamableHTTPClientTransport(new URL(`${target.url}/api/mcp`), { requestInit: { headers } });
  local.onmessage = (message) => {
    remote.send(message).catch((error: unknown) => {
      if (isRequest(message)) void local.send({ jsonrpc: '2.0', id: message.id, error: failureText(error, target) });
      else process.stderr.write(`context-runtime mcp: ${failureText(error, target).message}\n`);
    });
  };
  remote.onmessage = (message) => {
    // The negotiated version travels as a header on every later request, as the SDK's Client sets it.
    const version = (message as { result?: { protocolVersion?: unknown } }).result?.protocolVersion;
    if (typeof version === 'string') remote.setProtocolVersion(version);
    void local.send(message);
  };
  remote.onerror = (error) => process.stderr.write(`context-runtime mcp: ${error.message}\n`);
  const ended = new Promise<void>((resolve) => {
    streams.stdin.once('end', resolve);
    streams.stdin.once('close', resolve);
    streams.stdout.once('error', () => resolve());
  });
  await remote.start();
  await local.start();
  await ended;
  await local.close();
  await remote.close();
  return 0;
}
