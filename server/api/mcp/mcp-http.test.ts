/**
 * MCP over Streamable HTTP: the SDK's own `Client` and `StreamableHTTPClientTransport` against the
 * /api/mcp handler on a loopback port, on the real runtime with real API keys (the HTTP API v1's
 * store and bearer check): a missing or unknown key is a 401 JSON-RPC error, the key's role decides
 * which tools answer, its source scope what they and the resources reveal.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult, TextResourceContents } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiKeyStore } from '../../auth/api-key-store';
import { resolvePrincipal } from '../../auth/request-principal';
import { UserStore } from '../../auth/user-store';
import { DEMO_QUESTION } from '../../ingest/demo-corpus';
import { openRuntimeFixture, type RuntimeFixture } from '../../testing/runtime-fixture';
import { startV1ApiServer } from '../../testing/v1-api-server';

let fixture: RuntimeFixture;
let server: Awaited<ReturnType<typeof startV1ApiServer>>;
const keys = { viewer: '', operator: '', approver: '', logsOnly: '' };
const clients: Client[] = [];

async function clientWith(key: string | undefined): Promise<Client> {
  const transport = new StreamableHTTPClientTransport(new URL(`${server.url}/api/mcp`), key ? { requestInit: { headers: { authorization: `Bearer ${key}` } } } : {});
  const client = new Client({ name: 'mcp-http-test', version: '1.0.0' });
  await client.connect(transport);
  clients.push(client);
  return client;
}

async function callTool(client: Client, name: string, args: Record<string, unknown>) {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  return { isError: result.isError === true, text: result.content.map((part) => (part.type === 'text' ? part.text : '')).join(''), data: result.structuredContent as Record<string, unknown> | undefined };
}

const readJson = async (client: Client, uri: string): Promise<unknown> => JSON.parse(((await client.readResource({ uri })).contents[0] as TextResourceContents).text);

beforeAll(async () => {
  fixture = await openRuntimeFixture();
  const store = new ApiKeyStore(fixture.database);
  const sources = (await fixture.runtime.sources()).map((source) => source.name);
  const create = async (role: string, scope?: string[]) => (await store.create({ name: `${role} key`, role, sources: scope, createdBy: 'root@example.com' }, sources)).key;
  keys.viewer = await create('viewer');
  keys.operator = await create('operator');
  keys.approver = await create('approver');
  keys.logsOnly = await create('admin', ['demo-logs']);
  server = await startV1ApiServer({
    runtime: async () => fixture.runtime,
    principal: (headers) => resolvePrincipal(headers, { secret: () => 'unused', users: async () => new UserStore(fixture.database), isServiceToken: () => false, apiKeys: async () => store }),
  });
}, 120_000);

afterAll(async () => {
  for (const client of clients) await client.close();
  await server?.close();
  await fixture?.close();
});

describe('MCP over Streamable HTTP: keys', () => {
  it('answers a request without a key, or with an unknown one, 401 with a JSON-RPC error', async () => {
    for (const key of [undefined, 'crk_00000000_not-a-real-key']) {
      const response = await fetch(`${server.url}/api/mcp`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...(key ? { authorization: `Bearer ${key}` } : {}) },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      });
      expect(response.status).toBe(401);
      expect(response.headers.get('www-authenticate')).toBe('Bearer');
      expect(await response.json()).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32001, message: expect.stringContaining('API key') } });
      // The SDK's client reports the status as the error's code, and the message the server gave.
      await expect(clientWith(key)).rejects.toMatchObject({ code: 401, message: expect.stringContaining('an API key is required') });
    }
  });

  it('answers a lone JSON-RPC POST (the README\'s curl): stateless, no initialize needed, JSON back', async () => {
    const response = await fetch(`${server.url}/api/mcp`, {
      method: 'POST',
      headers: { authorization: `Bearer ${keys.operator}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'build_context', arguments: { goal: DEMO_QUESTION, tokenBudget: 800 } } }),
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('application/json');
    const body = (await response.json()) as { id: number; result: { structuredContent: { passages: unknown[]; tokens: number } } };
    expect(body.id).toBe(7);
    expect(body.result.structuredContent.passages.length).toBeGreaterThan(0);
    expect(body.result.structuredContent.tokens).toBeLessThanOrEqual(800);
  });

  it('refuses GET: the endpoint is stateless and pushes nothing', async () => {
    const response = await fetch(`${server.url}/api/mcp`, { headers: { authorization: `Bearer ${keys.viewer}`, accept: 'text/event-stream' } });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('POST');
  });
});

describe('MCP over Streamable HTTP: tools and resources as the key', () => {
  it('lists the tools, simulates and builds context for an operator key; refuses a viewer key the run tool', async () => {
    const operator = await clientWith(keys.operator);
    expect((await operator.listTools()).tools.map((tool) => tool.name).sort()).toEqual(['approve', 'build_context', 'explain', 'run', 'simulate']);
    expect(await callTool(operator, 'simulate', { goal: DEMO_QUESTION })).toMatchObject({ isError: false, data: { planHash: expect.any(String) } });
    const context = await callTool(operator, 'build_context', { goal: DEMO_QUESTION, tokenBudget: 1000 });
    expect((context.data!.passages as unknown[]).length).toBeGreaterThan(0);
    expect(await callTool(await clientWith(keys.viewer), 'run', { goal: DEMO_QUESTION })).toMatchObject({ isError: true, text: 'FORBIDDEN: requires the operator role' });
    expect(await callTool(operator, 'explain', { goal: DEMO_QUESTION, analyze: 'yes' })).toMatchObject({ isError: true, text: expect.stringContaining('analyze') });
  });

  it('runs a gated goal as an operator key, refuses it approve, and lets an approver key decide', async () => {
    const operator = await clientWith(keys.operator);
    const gated = await callTool(operator, 'run', { goal: 'Roll back the production deployment of checkout-api' });
    expect(gated.data).toMatchObject({ status: 'awaiting_approval' });
    const decision = { runId: gated.data!.runId, nodeId: (gated.data!.pendingApproval as { nodeId: string }).nodeId, decision: 'approved' };
    expect(await callTool(operator, 'approve', decision)).toMatchObject({ isError: true, text: 'FORBIDDEN: requires the approver role' });
    const decided = await callTool(await clientWith(keys.approver), 'approve', decision);
    expect(decided.isError).toBe(false);
    expect(decided.data!.status).not.toBe('awaiting_approval');
  });

  it("keeps a source-scoped key to its sources: build_context, the sources and another source's run", async () => {
    const run = await callTool(await clientWith(keys.operator), 'run', { goal: DEMO_QUESTION, sources: ['demo-docs'] });
    expect(run.data).toMatchObject({ status: 'completed' });
    const viewer = await clientWith(keys.viewer);
    expect(await readJson(viewer, `context-runtime://runs/${run.data!.runId as string}`)).toMatchObject({ runId: run.data!.runId });
    const scoped = await clientWith(keys.logsOnly);
    const passages = (await callTool(scoped, 'build_context', { goal: DEMO_QUESTION })).data!.passages as { sourceName: string }[];
    expect(new Set(passages.map((passage) => passage.sourceName))).toEqual(new Set(['demo-logs']));
    expect(((await readJson(scoped, 'context-runtime://sources')) as { name: string }[]).map((source) => source.name)).toEqual(['demo-logs']);
    expect((await scoped.listResources()).resources.map((resource) => resource.uri)).not.toContain(`context-runtime://runs/${run.data!.runId as string}`);
    await expect(scoped.readResource({ uri: `context-runtime://traces/${run.data!.runId as string}` })).rejects.toThrow(/NOT_FOUND/);
  });
});
