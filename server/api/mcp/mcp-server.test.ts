/**
 * The MCP server driven by the SDK's own `Client` over its in-memory transport, on the real runtime
 * (embedded PGlite, demo corpus): the tools answer, bad input is a tool error naming the field,
 * roles and source scopes are the runtime's, and the resources list and read what the caller may
 * read. The transports (stdio, Streamable HTTP) have their own tests.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult, TextResourceContents } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_QUESTION } from '../../ingest/demo-corpus';
import type { Principal } from '../../runtime/types';
import { openRuntimeFixture, type RuntimeFixture } from '../../testing/runtime-fixture';
import { createMcpServer } from './mcp-server';

const OPERATOR: Principal = { user: 'operator@example.com', roles: ['operator'] };
const APPROVER: Principal = { user: 'approver@example.com', roles: ['approver'] };
const VIEWER: Principal = { user: 'viewer@example.com', roles: ['viewer'] };
const LOGS_ONLY: Principal = { user: 'logs-key', roles: ['admin'], sourceScope: ['demo-logs'] };
const GATED_GOAL = 'Roll back the production deployment of checkout-api';

let fixture: RuntimeFixture;
const clients: Client[] = [];

async function clientAs(principal: Principal, impersonal = false): Promise<Client> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await createMcpServer({ runtime: async () => fixture.runtime, principal, impersonal }).connect(serverSide);
  const client = new Client({ name: 'mcp-server-test', version: '1.0.0' });
  await client.connect(clientSide);
  clients.push(client);
  return client;
}

async function callTool(client: Client, name: string, args: Record<string, unknown>) {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  const text = result.content.map((part) => (part.type === 'text' ? part.text : '')).join('');
  return { isError: result.isError === true, text, data: result.structuredContent as Record<string, unknown> | undefined };
}

const readJson = async (client: Client, uri: string): Promise<unknown> => JSON.parse(((await client.readResource({ uri })).contents[0] as TextResourceContents).text);

beforeAll(async () => {
  fixture = await openRuntimeFixture();
}, 120_000);

afterAll(async () => {
  for (const client of clients) await client.close();
  await fixture?.close();
});

describe('MCP tools', () => {
  it('lists the five tools with their input schemas', async () => {
    const { tools } = await (await clientAs(VIEWER)).listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(['approve', 'build_context', 'explain', 'run', 'simulate']);
    const run = tools.find((tool) => tool.name === 'run')!;
    expect(run.inputSchema).toMatchObject({ type: 'object', required: ['goal'], properties: { goal: { type: 'string' }, sources: { type: 'array' } } });
    expect(tools.find((tool) => tool.name === 'build_context')!.inputSchema.properties).toHaveProperty('tokenBudget');
  });

  it('simulates, explains, builds context and runs a goal as an operator', async () => {
    const client = await clientAs(OPERATOR);
    const simulated = await callTool(client, 'simulate', { goal: DEMO_QUESTION });
    expect(simulated.isError).toBe(false);
    expect(simulated.data).toMatchObject({ planHash: expect.any(String), basedOnSamples: expect.any(Number) });
    const explained = await callTool(client, 'explain', { goal: DEMO_QUESTION });
    expect(explained.data).toMatchObject({ goal: DEMO_QUESTION, planHash: simulated.data!.planHash });
    const runsBefore = await fixture.count('runs');
    const context = await callTool(client, 'build_context', { goal: DEMO_QUESTION, tokenBudget: 1200 });
    const passages = context.data!.passages as { ref: number; sourceName: string; tokens: number }[];
    expect(passages.length).toBeGreaterThan(0);
    expect(passages.map((passage) => passage.ref)).toEqual(passages.map((_passage, index) => index + 1));
    expect(passages.reduce((sum, passage) => sum + passage.tokens, 0)).toBeLessThanOrEqual(1200);
    expect(await fixture.count('runs')).toBe(runsBefore);
    const run = await callTool(client, 'run', { goal: DEMO_QUESTION });
    expect(run.data).toMatchObject({ status: 'completed', runId: expect.any(String) });
    expect((run.data!.citations as unknown[]).length).toBeGreaterThan(0);
    expect(JSON.parse(run.text)).toEqual(run.data);
  });

  it.each([
    ['a missing goal', 'run', {}, 'goal'],
    ['an unknown field', 'simulate', { goal: 'x', colour: 'red' }, 'colour'],
    ['a token budget out of range', 'build_context', { goal: DEMO_QUESTION, tokenBudget: 0 }, 'tokenBudget'],
    ['a bad constraint', 'simulate', { goal: DEMO_QUESTION, constraints: { max_cost_usd: -1 } }, 'constraints.max_cost_usd'],
    ['an unknown source', 'build_context', { goal: DEMO_QUESTION, sources: ['nowhere'] }, 'nowhere'],
    ['a decision that is neither', 'approve', { runId: 'r', nodeId: 'n', decision: 'maybe' }, 'decision'],
  ])('answers %s with a tool error naming it', async (_name, tool, args, named) => {
    const result = await callTool(await clientAs(APPROVER), tool, args);
    expect(result.isError).toBe(true);
    expect(result.text).toContain(named);
    expect(result.text).not.toMatch(/at .*\.ts:\d+/);
  });

  it('refuses run to a viewer and approve to an operator; an approver decides a gate someone else opened', async () => {
    const runsBefore = await fixture.count('runs');
    expect(await callTool(await clientAs(VIEWER), 'run', { goal: DEMO_QUESTION })).toMatchObject({ isError: true, text: 'FORBIDDEN: requires the operator role' });
    expect(await fixture.count('runs')).toBe(runsBefore);
    const operator = await clientAs(OPERATOR);
    const gated = await callTool(operator, 'run', { goal: GATED_GOAL });
    expect(gated.data).toMatchObject({ status: 'awaiting_approval', pendingApproval: { nodeId: expect.any(String) } });
    const decision = { runId: gated.data!.runId, nodeId: (gated.data!.pendingApproval as { nodeId: string }).nodeId, decision: 'rejected', comment: 'not during the freeze' };
    expect(await callTool(operator, 'approve', decision)).toMatchObject({ isError: true, text: 'FORBIDDEN: requires the approver role' });
    expect((await fixture.runtime.getRun(decision.runId as string)).run.status).toBe('awaiting_approval');
    // The CLI (admin, but no person) may not decide over MCP: the app asks it to sign in as an account.
    const asCli = await callTool(await clientAs({ user: 'cli@local', roles: ['admin'] }, true), 'approve', decision);
    expect(asCli).toMatchObject({ isError: true, text: expect.stringContaining("connect with an approver's API key") });
    expect((await fixture.runtime.getRun(decision.runId as string)).run.status).toBe('awaiting_approval');
    const decided = await callTool(await clientAs(APPROVER), 'approve', decision);
    expect(decided).toMatchObject({ isError: false, data: { status: 'rejected' } });
  });

  it('keeps a source-scoped caller to its sources: build_context draws from them only', async () => {
    const context = await callTool(await clientAs(LOGS_ONLY), 'build_context', { goal: DEMO_QUESTION });
    expect(context.isError).toBe(false);
    const passages = context.data!.passages as { sourceName: string }[];
    expect(passages.length).toBeGreaterThan(0);
    expect(new Set(passages.map((passage) => passage.sourceName))).toEqual(new Set(['demo-logs']));
    const asked = await callTool(await clientAs(LOGS_ONLY), 'build_context', { goal: DEMO_QUESTION, sources: ['demo-docs'] });
    expect(asked.text).not.toContain('"sourceName":"demo-docs"');
  });
});

describe('MCP resources', () => {
  it('lists runs and sources, and reads a run and its trace', async () => {
    const run = await fixture.runtime.run({ goal: DEMO_QUESTION, principal: OPERATOR });
    const client = await clientAs(VIEWER);
    const { resources } = await client.listResources();
    const uris = resources.map((resource) => resource.uri);
    expect(uris).toEqual(expect.arrayContaining(['context-runtime://runs', 'context-runtime://sources', `context-runtime://runs/${run.runId}`]));
    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates.map((template) => template.uriTemplate).sort()).toEqual(['context-runtime://runs/{runId}', 'context-runtime://traces/{runId}']);
    expect(await readJson(client, `context-runtime://runs/${run.runId}`)).toMatchObject({ runId: run.runId, status: 'completed', answer: run.answer });
    const trace = (await readJson(client, `context-runtime://traces/${run.runId}`)) as { runId: string; spans: { name: string }[] };
    expect(trace.runId).toBe(run.runId);
    expect(trace.spans.length).toBeGreaterThan(0);
    const sources = (await readJson(client, 'context-runtime://sources')) as { name: string }[];
    expect(sources.map((source) => source.name)).toEqual(expect.arrayContaining(['demo-docs', 'demo-logs', 'demo-git']));
    expect(((await readJson(client, 'context-runtime://runs')) as { id: string }[]).map((row) => row.id)).toContain(run.runId);
  });

  it('hides from a source-scoped caller the runs and sources outside its scope', async () => {
    const run = await fixture.runtime.run({ goal: DEMO_QUESTION, principal: OPERATOR });
    const client = await clientAs(LOGS_ONLY);
    expect(((await readJson(client, 'context-runtime://sources')) as { name: string }[]).map((source) => source.name)).toEqual(['demo-logs']);
    expect((await client.listResources()).resources.map((resource) => resource.uri)).not.toContain(`context-runtime://runs/${run.runId}`);
    expect(JSON.stringify(await readJson(client, 'context-runtime://runs'))).not.toContain(run.runId);
    for (const uri of [`context-runtime://runs/${run.runId}`, `context-runtime://traces/${run.runId}`]) {
      await expect(client.readResource({ uri })).rejects.toThrow(/NOT_FOUND/);
    }
  });

  it('refuses every resource to a principal without a role', async () => {
    const client = await clientAs({ user: 'nobody', roles: [] });
    await expect(client.readResource({ uri: 'context-runtime://sources' })).rejects.toThrow(/requires the viewer role/);
    await expect(client.listResources()).rejects.toThrow(/requires the viewer role/);
  });
});
