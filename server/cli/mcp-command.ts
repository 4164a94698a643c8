/**
 * `context-runtime mcp`: an MCP server on stdio (what Claude Desktop, Cursor and other MCP clients
 * launch). It runs where the CLI's other commands run (connect-runtime.ts): through the server
 * that owns the data directory, or the one --api-key / --url names — relayed to its /api/mcp, as
 * that key or the server's service token — or, with no server, on the runtime opened here as the
 * local CLI (admin, the identity every CLI command has on its own data; naming no person, it may
 * not approve — mcp-server.ts `impersonal`). Stdout carries the
 * protocol only: everything else the process prints goes to stderr.
 */
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { createMcpServer } from '../api/mcp/mcp-server';
import { openRuntime } from '../bootstrap';
import { serviceTokenPathOf } from '../auth/local-secrets';
import { type ApiKeyAccess, locateRuntime } from './connect-runtime';
import { bridgeStdioToServer, type StdioStreams } from './mcp-stdio-bridge';
import { LOCAL_CLI } from './runtime-client';

/**
 * A log line on stdout would be read by the client as a malformed protocol message and end the
 * session; the runtime and its adapters log with console.log/info in places (ingest, demo load).
 */
function keepStdoutForTheProtocol(): void {
  console.log = console.error;
  console.info = console.error;
  console.debug = console.error;
}

/** Resolves when the client is gone: stdin ended, or stdout closed under a write (EPIPE). */
function clientGone(streams: StdioStreams): Promise<void> {
  return new Promise<void>((resolve) => {
    streams.stdin.once('end', resolve);
    streams.stdin.once('close', resolve);
    streams.stdout.once('error', () => resolve());
  });
}

async function serveLocally(configPath: string | undefined, streams: StdioStreams): Promise<number> {
  // Opened while the client initializes, not before: a first start converts the word vectors and
  // loads the demo corpus (a minute on a busy machine), longer than a client waits for `initialize`.
  const opening = openRuntime({ configPath });
  opening.catch(() => {}); // reported to the caller of the first tool, and in the log below
  const server = createMcpServer({ runtime: () => opening, principal: LOCAL_CLI, impersonal: true });
  const gone = clientGone(streams);
  await server.connect(new StdioServerTransport(streams.stdin, streams.stdout));
  await gone;
  await server.close();
  const runtime = await opening.catch((error: unknown) => {
    process.stderr.write(`context-runtime mcp: the runtime did not open: ${error instanceof Error ? error.message : String(error)}\n`);
    return undefined;
  });
  await runtime?.close();
  return runtime ? 0 : 1;
}

export async function runMcpCommand(configPath: string | undefined, access: ApiKeyAccess, streams: StdioStreams = { stdin: process.stdin, stdout: process.stdout }): Promise<number> {
  if (streams.stdout === process.stdout) keepStdoutForTheProtocol();
  const location = locateRuntime(configPath, access);
  switch (location.kind) {
    case 'local':
      return serveLocally(location.configPath, streams);
    case 'api-key':
      return bridgeStdioToServer({ url: location.url, bearer: location.apiKey, refused: `the server at ${location.url} refused the key: it is unknown or revoked (an admin creates keys under Admin → API keys)` }, streams);
    case 'server':
      if (location.notice) process.stderr.write(`context-runtime: ${location.notice}\n`);
      return bridgeStdioToServer(
        {
          url: location.url,
          bearer: location.serviceToken,
          refused: `the server at ${location.url} (process ${location.owner.pid}) owns ${location.dataDir} and refused the CLI's service token (${serviceTokenPathOf(location.dataDir)}): run as the user who started the server, or wait until it has started`,
        },
        streams,
      );
  }
}
