/**
 * `context-runtime mcp` as an MCP client launches it: the real CLI (bin/context-runtime.mjs) spawned
 * by the SDK's `StdioClientTransport`. With an API key it relays to a server's /api/mcp, so the
 * key's scope decides; with no server it opens the data directory itself, as the local CLI.
 */
import { rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult, TextResourceContents } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiKeyStore } from '../auth/api-key-store';
import { resolvePrincipal } from '../auth/request-principal';
import { UserStore } from '../auth/user-store';
import { DEMO_QUESTION } from '../ingest/demo-corpus';
import { openRuntimeFixture, type RuntimeFixture } from '../testing/runtime-fixture';
import { startV1ApiServer } from '../testing/v1-api-server';

const BIN = fileURLToPath(new URL('../../bin/context-runtime.mjs', import.meta.url));
let fixture: RuntimeFixture;
let server: Awaited<ReturnType<typeof startV1ApiServer>> | undefined;
let logsOnlyKey = '';
const clients: Client[] = [];

/** The CLI's environment without what would point it elsewhere than the arguments say. */
function cliEnvironment(): Record<string, string> {
  const environment = Object.fromEntries(Object.entries(process.env).filter((entry): entry is [string, string] => entry[1] !== undefined));
  for (const name of ['CONTEXT_RUNTIME_DATA_DIR', 'CONTEXT_RUNTIME_API_KEY', 'CONTEXT_RUNTIME_URL', 'DATABASE_URL']) delete environment[name];
  return environment;
}

async function launch(args: readonly string[]): Promise<Client> {
  const transport = new StdioClientTransport({ command: process.execPath, args: [BIN, 'mcp', ...args], cwd: fixture.root, env: cliEnvironment(), stderr: 'ignore' });
  const client = new Client({ name: 'mcp-stdio-test', version: '1.0.0' });
  await client.connect(transport);
  clients.push(client);
  return client;
}

async function callTool(client: Client, name: string, args: Record<string, unknown>) {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  return { isError: result.isError === true, text: result.content.map((part) => (part.type === 'text' ? part.text : '')).join(''), data: result.structuredContent as Record<string, unknown> | undefined };
}

const sourceNames = async (client: Client) => (JSON.parse(((await client.readResource({ uri: 'context-runtime://sources' })).contents[0] as TextResourceContents).text) as { name: string }[]).map((source) => source.name);

beforeAll(async () => {
  fixture = await openRuntimeFixture();
  const store = new ApiKeyStore(fixture.database);
  const sources = (await fixture.runtime.sources()).map((source) => source.name);
  logsOnlyKey = (await store.create({ name: 'logs', role: 'operator', sources: ['demo-logs'], createdBy: 'root@example.com' }, sources)).key;
  server = await startV1ApiServer({
    runtime: async () => fixture.runtime,
    principal: (headers) => resolvePrincipal(headers, { secret: () => 'unused', users: async () => new UserStore(fixture.database), isServiceToken: () => false, apiKeys: async () => store }),
  });
}, 120_000);

afterAll(async () => {
  for (const client of clients) await client.close();
  await server?.close();
  if (!fixture) return;
  await fixture.close({ remove: false });
  rmSync(fixture.root, { recursive: true, force: true });
});

describe('context-runtime mcp (stdio)', () => {
  it('relays to the server as the API key: its scope decides what the tools and resources show', async () => {
    const client = await launch(['--api-key', logsOnlyKey, '--url', server!.url]);
    expect((await client.listTools()).tools.map((tool) => tool.name).sort()).toEqual(['approve', 'build_context', 'explain', 'run', 'simulate']);
    expect(await sourceNames(client)).toEqual(['demo-logs']);
    const context = await callTool(client, 'build_context', { goal: DEMO_QUESTION });
    expect(new Set((context.data!.passages as { sourceName: string }[]).map((passage) => passage.sourceName))).toEqual(new Set(['demo-logs']));
    expect(await callTool(client, 'approve', { runId: 'r', nodeId: 'n', decision: 'approved' })).toMatchObject({ isError: true, text: 'FORBIDDEN: requires the approver role' });
  }, 120_000);

  it('answers with the refusal, in the CLI\'s terms, when the server refuses the key', async () => {
    await expect(launch(['--api-key', 'crk_00000000_not-a-real-key', '--url', server!.url])).rejects.toThrow(/refused the key: it is unknown or revoked/);
  }, 120_000);

  it('with no server holding the data, opens it itself and serves as the local CLI', async () => {
    await server!.close();
    server = undefined;
    await fixture.close({ remove: false });
    const client = await launch(['--config', fixture.configPath]);
    expect(await sourceNames(client)).toEqual(expect.arrayContaining(['demo-docs', 'demo-logs', 'demo-events', 'demo-metrics', 'demo-git']));
    const simulated = await callTool(client, 'simulate', { goal: DEMO_QUESTION });
    expect(simulated).toMatchObject({ isError: false, data: { planHash: expect.any(String) } });
    expect(await callTool(client, 'simulate', { goal: DEMO_QUESTION, constraints: { max_cost_usd: -1 } })).toMatchObject({ isError: true, text: expect.stringContaining('constraints.max_cost_usd') });
    // The local CLI is admin but names no person: a gate is decided with an approver's key.
    expect(await callTool(client, 'approve', { runId: 'r', nodeId: 'n', decision: 'approved' })).toMatchObject({ isError: true, text: expect.stringContaining("connect with an approver's API key") });
  }, 180_000);
});
