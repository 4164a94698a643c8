/**
 * Issue 12, finding 3 — the authorization matrix. Every procedure of the app router (enumerated,
 * so a new one fails here until it is classified below) is called as each role × with and without
 * read permission on a restricted source, through `createCaller` over the real runtime (embedded
 * PGlite). The restricted source holds a planted chunk and fact; runs over it carry a planted goal,
 * an approval decision a planted comment, a memory planted text. A caller who may not read the
 * source must find none of them in any response, error included. The HTTP API v1 (every route of
 * its route table) is driven the same way, with real Requests into its handlers, and so is the MCP
 * server (every tool and resource), with the SDK's own Client over its in-memory transport.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ExplainResult, RunResult } from '../runtime/explain/explain-types';
import { runTools } from '../runtime/execution/run-tools';
import { toolReadsFor } from '../runtime/facade/tool-reads';
import { withNode } from '../runtime/ir/graph';
import type { Principal } from '../runtime/types';
import { openRuntimeFixture, type RuntimeFixture } from '../testing/runtime-fixture';
import type { ApiContext } from './init';
import { createMcpServer } from './mcp/mcp-server';
import { MCP_RESOURCES } from './mcp/mcp-resources';
import { MCP_TOOLS } from './mcp/mcp-tools';
import { appRouter } from './root-router';
import { V1_ROUTES } from './v1/v1-routes';

const VAULT = 'payroll-vault';
/** Holding this role is what "may read the vault" means here (config policy.source_roles). */
const VAULT_READER = 'payroll-reader';
/** Planted strings, lower case: a goal is also echoed normalized (plan-cache intents). */
const PLANTED = { goal: 'zebragoal', chunk: 'zebrachunk', fact: 'zebrafact', comment: 'zebracomment', memory: 'zebramemory' } as const;

const OWNER: Principal = { user: 'owner@example.com', roles: ['approver', VAULT_READER] };
/** A second approver who may read the vault: nobody approves their own run (issue 12, finding 7). */
const SECOND_APPROVER: Principal = { user: 'second@example.com', roles: ['approver', VAULT_READER] };
const ROLES = ['viewer', 'operator', 'approver', 'admin'] as const;

let fixture: RuntimeFixture;
const seeded = { completed: '', paused: '', decided: '', chunkId: '', factId: '', memoryId: '' };

/** The input each procedure is called with, or why it is left out. Every procedure must be listed. */
type Case = { readonly input: () => unknown } | { readonly skip: string };
const CASES: Readonly<Record<string, Case>> = {
  'runtime.run': { input: () => ({ goal: 'What is the checkout-api salary band in the payroll vault?' }) },
  'runtime.submit': { input: () => ({ goal: 'What is the checkout-api salary band in the payroll vault?' }) },
  'runtime.explain': { input: () => ({ goal: 'What is the checkout-api salary band in the payroll vault?' }) },
  'runtime.simulate': { input: () => ({ goal: 'What is the checkout-api salary band in the payroll vault?' }) },
  'runtime.approve': { input: () => ({ runId: seeded.paused, nodeId: 'approve', decision: 'rejected' }) },
  // The paused run over the vault: a caller who may not read it may not learn it exists, nor cancel it.
  'runtime.cancel': { input: () => ({ runId: seeded.paused }) },
  'runtime.getRun': { input: () => ({ runId: seeded.completed }) },
  'runtime.listRuns': { input: () => ({ limit: 100 }) },
  // The vault's own folder: refused to non-admins and, with no allowed roots configured, to admins; no refusal may echo its text.
  'runtime.ingest': { input: () => ({ path: join(fixture.root, VAULT), source: VAULT }) },
  // A new source of harmless text: the report of what was written may not carry any vault content.
  'runtime.upload': { input: () => ({ source: 'matrix-uploads', files: [{ path: 'notes.md', contentBase64: Buffer.from('# Notes\n\nNothing secret here.\n').toString('base64') }] }) },
  'runtime.statistics': { input: () => undefined },
  // Counts of what aged out (nothing here is older than the retention ages): no content in the answer.
  'runtime.applyRetention': { input: () => undefined },
  'runtime.sources': { input: () => undefined },
  'calibration.report': { input: () => ({}) },
  'learning.arms': { input: () => undefined },
  'learning.feedback': { input: () => ({ runId: seeded.completed, thumb: 'up' }) },
  'knowledge.sources': { input: () => undefined },
  'knowledge.versions': { input: () => ({ sourceName: VAULT }) },
  'knowledge.facts': { input: () => ({ sourceName: VAULT }) },
  'knowledge.lineage': { input: () => ({ nodeId: seeded.memoryId }) },
  'knowledge.contradictions': { input: () => ({}) },
  'knowledge.memories': { input: () => ({ kinds: ['memory', 'fact'] }) },
  'knowledge.promoteFact': { input: () => ({ factId: seeded.factId, confidence: 0.5 }) },
  'knowledge.expireMemory': { input: () => ({ memoryId: seeded.memoryId, at: '2999-01-01T00:00:00Z' }) },
  'knowledge.supersedeMemory': { input: () => ({ memoryId: seeded.memoryId, value: 'other', confidence: 0.5 }) },
  'knowledge.compactMemories': { input: () => undefined },
  'users.list': { skip: 'admin-only account management: reads no run, source or knowledge content' },
  'users.create': { skip: 'admin-only account management: reads no run, source or knowledge content' },
  'users.setRoles': { skip: 'admin-only account management: reads no run, source or knowledge content' },
  'users.setDisabled': { skip: 'admin-only account management: reads no run, source or knowledge content' },
  'users.me': { skip: "the caller's own account: reads no run, source or knowledge content" },
  'users.setPassword': { skip: "the caller's own password: reads no run, source or knowledge content" },
  'users.completeSetup': { skip: 'the public first-run flow: no principal, no content' },
  'console.start': { input: () => ({ goal: 'What is the checkout-api salary band in the payroll vault?' }) },
  'console.follow': { input: () => ({ runId: seeded.completed }) },
  'console.evidence': { input: () => ({ runId: seeded.completed, chunkId: seeded.chunkId }) },
  'console.history': { input: () => ({}) },
  'traces.list': { input: () => ({ limit: 200 }) },
  'traces.get': { input: () => ({ runId: seeded.decided }) },
  'approvals.inbox': { input: () => ({}) },
  'approvals.mine': { input: () => ({}) },
  'approvals.decide': { input: () => ({ runId: seeded.paused, nodeId: 'approve', decision: 'rejected' }) },
  'approvals.log': { input: () => ({}) },
  // Counts, row ids and a hash: the chain's integrity, no goal or comment (admin only).
  'approvals.verify': { input: () => undefined },
  'plans.runEdited': { input: () => ({ goal: 'What is the checkout-api salary band in the payroll vault?', graph: { version: 1, nodes: [] } }) },
  'planCache.stats': { input: () => ({}) },
  'planCache.invalidate': { skip: 'admin-only write: answers with a count, reads no content' },
  'answers.recent': { input: () => ({}) },
  'apiKeys.list': { skip: 'admin-only key management: names, prefixes and scopes, no run, source or knowledge content' },
  // Refused below admin before anything is read; an admin's answer is the key and the scope they chose.
  'apiKeys.create': { skip: 'admin-only key management: answers with the new key and its scope, reads no content' },
  'apiKeys.revoke': { skip: 'admin-only key management: answers with the revoked key, reads no content' },
};

function procedures(): readonly { path: string; type: string }[] {
  const record = appRouter._def.procedures as unknown as Record<string, { _def: { type: string } }>;
  return Object.entries(record).map(([path, procedure]) => ({ path, type: procedure._def.type }));
}

/** Everything a caller receives, as text: the result, or the error with its message and details. */
async function responseOf(path: string, type: string, principal: Principal, input: unknown): Promise<string> {
  const caller = appRouter.createCaller({ runtime: async () => fixture.runtime, principal } as ApiContext) as unknown as Record<string, unknown>;
  const procedure = path.split('.').reduce<unknown>((node, key) => (node as Record<string, unknown>)[key], caller) as (input?: unknown) => Promise<unknown>;
  let received: unknown;
  try {
    received = await procedure(input);
    if (type === 'subscription') {
      const events: unknown[] = [];
      for await (const event of received as AsyncIterable<unknown>) if (events.push(event) >= 50) break;
      received = events;
    }
  } catch (error) {
    const { message, cause } = error as { message?: string; cause?: { details?: unknown } };
    received = { error: message, details: cause?.details };
  }
  return JSON.stringify(received, (_key, value: unknown) => (value instanceof Map || value instanceof Set ? [...value] : value)).toLowerCase();
}

beforeAll(async () => {
  fixture = await openRuntimeFixture({ config: { policy: { source_roles: { [VAULT]: [VAULT_READER] } } } });
  const folder = join(fixture.root, VAULT);
  mkdirSync(folder, { recursive: true });
  writeFileSync(join(folder, 'bands.md'), `# Payroll vault\n\nThe ${PLANTED.chunk} note covers the checkout-api salary band.\n\nThe ${PLANTED.fact}-api memory limit is 7731Mi.\n`);
  await fixture.runtime.ingest(folder, { source: VAULT });
  const ask = (goal: string) => fixture.runtime.run({ goal: `${goal} (${PLANTED.goal})`, sources: [VAULT], principal: OWNER });
  const completed: RunResult = await ask('What is the checkout-api salary band in the payroll vault?');
  const decided = await ask('Delete the checkout-api salary band records in the payroll vault');
  const paused = await ask('Delete the checkout-api salary band records in the payroll vault now');
  await fixture.runtime.approve(decided.runId, 'approve', 'approved', SECOND_APPROVER, PLANTED.comment);
  const evidence = await fixture.runtime.evidence(completed.runId);
  const facts = await fixture.runtime.knowledge().explorer!.facts(VAULT);
  const fact = facts.find((candidate) => JSON.stringify(candidate).toLowerCase().includes(PLANTED.fact))!;
  const memory = await fixture.runtime.knowledge().memories!.promote(fact.id, { confidence: 0.9, text: `${PLANTED.memory} band` });
  Object.assign(seeded, { completed: completed.runId, decided: decided.runId, paused: paused.runId, chunkId: evidence[0]?.hit.chunkId ?? '', factId: fact.id, memoryId: memory.id });
});

afterAll(async () => {
  await fixture?.close();
});

describe('authorization matrix: no content of a source the caller may not read', () => {
  it('classifies every procedure of the app router', () => {
    const unclassified = procedures().map((entry) => entry.path).filter((path) => !(path in CASES));
    expect(unclassified, 'add each new procedure to CASES with an input (or a reason to skip it)').toEqual([]);
    expect(Object.keys(CASES).filter((path) => !procedures().some((entry) => entry.path === path))).toEqual([]);
  });

  it('plants what it looks for: the restricted runs completed, paused and decided over the vault, with its chunk cited', async () => {
    const { run } = await fixture.runtime.getRun(seeded.completed);
    expect(run.status).toBe('completed');
    expect(run.explain.selectedSources).toEqual([VAULT]);
    expect((await fixture.runtime.getRun(seeded.paused)).run.status).toBe('awaiting_approval');
    expect(JSON.stringify(await fixture.runtime.evidence(seeded.completed)).toLowerCase()).toContain(PLANTED.chunk);
    expect(seeded.factId).not.toBe('');
  });

  it('shows the planted content to a caller who may read the vault (so the absence below means something)', async () => {
    const reader: Principal = { user: 'reader@example.com', roles: ['viewer', VAULT_READER] };
    expect(await responseOf('runtime.getRun', 'query', reader, { runId: seeded.completed })).toContain(PLANTED.goal);
    expect(await responseOf('console.evidence', 'query', reader, { runId: seeded.completed, chunkId: seeded.chunkId })).toContain(PLANTED.chunk);
    expect(await responseOf('knowledge.facts', 'query', reader, { sourceName: VAULT })).toContain(PLANTED.fact);
    expect(await responseOf('knowledge.memories', 'query', reader, {})).toContain(PLANTED.memory);
    expect(await responseOf('approvals.log', 'query', { ...reader, roles: ['approver', VAULT_READER] }, {})).toContain(PLANTED.comment);
  });

  it('learning.feedback: a run the voter may not read answers as a run that does not exist, and takes no vote', async () => {
    const operator: Principal = { user: 'operator@example.com', roles: ['operator'] };
    const restricted = await responseOf('learning.feedback', 'mutation', operator, { runId: seeded.completed, thumb: 'down' });
    const missing = await responseOf('learning.feedback', 'mutation', operator, { runId: 'no-such-run', thumb: 'down' });
    expect(restricted).toContain('does not exist');
    expect(restricted.replaceAll(seeded.completed.toLowerCase(), 'no-such-run')).toBe(missing);
    // A voter who may read the vault is counted: the first counted vote is theirs, so the refusal above stored nothing.
    const reader: Principal = { user: 'reader@example.com', roles: ['operator', VAULT_READER] };
    expect(JSON.parse(await responseOf('learning.feedback', 'mutation', reader, { runId: seeded.completed, thumb: 'down' }))).toMatchObject({ up: 0, down: 1 });
  });

  const cases = procedures().flatMap(({ path, type }) => {
    const entry = CASES[path];
    return entry && 'input' in entry ? ROLES.map((role) => [path, role, type, entry] as const) : [];
  });

  it.each(cases)('%s as %s without permission on the vault', async (path, role, type, entry) => {
    const principal: Principal = { user: `${role}@example.com`, roles: [role] };
    const text = await responseOf(path, type, principal, entry.input());
    for (const [what, planted] of Object.entries(PLANTED)) expect(text, `${path} returned the planted ${what}`).not.toContain(planted);
    for (const runId of [seeded.completed, seeded.decided, seeded.paused]) {
      if (!JSON.stringify(entry.input() ?? {}).includes(runId)) expect(text, `${path} named a restricted run`).not.toContain(runId.toLowerCase());
    }
  });
});

/** What each v1 route is called with: a body or route parameters naming the vault and its runs. Every route must be listed. */
const V1_CASES: Record<string, { readonly body?: () => unknown; readonly params?: () => Record<string, string> }> = {
  submitRun: { body: () => ({ goal: 'What is the checkout-api salary band in the payroll vault?', sources: [VAULT], wait: true }) },
  getRun: { params: () => ({ id: seeded.completed }) },
  runEvents: { params: () => ({ id: seeded.completed }) },
  // The paused run over the vault: a caller who may not read it may not cancel it (nor learn more than the id it sent).
  cancelRun: { params: () => ({ id: seeded.paused }) },
  explain: { body: () => ({ goal: 'What is the checkout-api salary band in the payroll vault?', sources: [VAULT] }) },
  simulate: { body: () => ({ goal: 'What is the checkout-api salary band in the payroll vault?', sources: [VAULT] }) },
  buildContext: { body: () => ({ goal: 'What is the checkout-api salary band in the payroll vault?', sources: [VAULT] }) },
};

/** The whole response of one v1 route as lower-case text (an event stream is read to its end). */
async function v1ResponseOf(operationId: string, principal: Principal): Promise<{ status: number; text: string }> {
  const route = V1_ROUTES.find((candidate) => candidate.operationId === operationId)!;
  const entry = V1_CASES[operationId]!;
  const body = entry.body?.();
  const request = new Request(`http://127.0.0.1${route.path}`, { method: route.method.toUpperCase(), ...(body === undefined ? {} : { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } }) });
  const response = await route.handle(request, { runtime: async () => fixture.runtime, principal: async () => principal }, entry.params?.() ?? {});
  return { status: response.status, text: (await response.text()).toLowerCase() };
}

describe('authorization matrix, HTTP API v1: no content of a source the caller may not read', () => {
  it('classifies every v1 route', () => {
    expect(V1_ROUTES.map((route) => route.operationId).filter((id) => !(id in V1_CASES))).toEqual([]);
  });

  it('shows the planted content to a caller who may read the vault (so the absence below means something)', async () => {
    const reader: Principal = { user: 'reader@example.com', roles: ['operator', VAULT_READER] };
    expect((await v1ResponseOf('getRun', reader)).text).toContain(PLANTED.goal);
    expect((await v1ResponseOf('buildContext', reader)).text).toContain(PLANTED.chunk);
  });

  const v1Cases = V1_ROUTES.flatMap((route) => ROLES.map((role) => [route.operationId, role] as const));

  it.each(v1Cases)('%s as %s without permission on the vault', async (operationId, role) => {
    const { text } = await v1ResponseOf(operationId, { user: `${role}@example.com`, roles: [role] });
    for (const [what, planted] of Object.entries(PLANTED)) expect(text, `${operationId} returned the planted ${what}`).not.toContain(planted);
    const sent = JSON.stringify(V1_CASES[operationId]!.params?.() ?? {});
    for (const runId of [seeded.decided, seeded.paused]) {
      if (!sent.includes(runId)) expect(text, `${operationId} named a restricted run`).not.toContain(runId.toLowerCase());
    }
  });

  it('leaves the vault\'s paused run as it was: no caller without permission on the vault cancelled it', async () => {
    expect((await fixture.runtime.getRun(seeded.paused)).run.status).toBe('awaiting_approval');
  });
});

/** What each MCP tool is called with, and which URI each resource is read at: the vault and its runs. Every tool and resource must be listed. */
const MCP_TOOL_CASES: Record<string, () => Record<string, unknown>> = {
  run: () => ({ goal: 'What is the checkout-api salary band in the payroll vault?', sources: [VAULT] }),
  explain: () => ({ goal: 'What is the checkout-api salary band in the payroll vault?', sources: [VAULT] }),
  simulate: () => ({ goal: 'What is the checkout-api salary band in the payroll vault?', sources: [VAULT] }),
  build_context: () => ({ goal: 'What is the checkout-api salary band in the payroll vault?', sources: [VAULT] }),
  approve: () => ({ runId: seeded.paused, nodeId: 'approve', decision: 'rejected', comment: 'matrix' }),
};
const MCP_RESOURCE_CASES: Record<string, () => string> = {
  runs: () => 'context-runtime://runs',
  run: () => `context-runtime://runs/${encodeURIComponent(seeded.completed)}`,
  trace: () => `context-runtime://traces/${encodeURIComponent(seeded.decided)}`,
  sources: () => 'context-runtime://sources',
};

/** Everything an MCP caller receives from one call, as lower-case text: the result, or the error's message and data. */
async function mcpResponseOf(principal: Principal, call: (client: Client) => Promise<unknown>): Promise<string> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await createMcpServer({ runtime: async () => fixture.runtime, principal }).connect(serverSide);
  const client = new Client({ name: 'access-matrix', version: '1.0.0' });
  await client.connect(clientSide);
  try {
    return JSON.stringify(await call(client)).toLowerCase();
  } catch (error) {
    const { message, data } = error as { message?: string; data?: unknown };
    return JSON.stringify({ error: message, data }).toLowerCase();
  } finally {
    await client.close();
  }
}

describe('authorization matrix, MCP: no content of a source the caller may not read', () => {
  it('classifies every MCP tool and resource', () => {
    expect(MCP_TOOLS.map((tool) => tool.name).filter((name) => !(name in MCP_TOOL_CASES))).toEqual([]);
    expect(MCP_RESOURCES.map((resource) => resource.name).filter((name) => !(name in MCP_RESOURCE_CASES))).toEqual([]);
  });

  it('shows the planted content to a caller who may read the vault (so the absence below means something)', async () => {
    const reader: Principal = { user: 'reader@example.com', roles: ['operator', VAULT_READER] };
    expect(await mcpResponseOf(reader, (client) => client.readResource({ uri: MCP_RESOURCE_CASES.run!() }))).toContain(PLANTED.goal);
    expect(await mcpResponseOf(reader, (client) => client.callTool({ name: 'build_context', arguments: MCP_TOOL_CASES.build_context!() }))).toContain(PLANTED.chunk);
    expect(await mcpResponseOf(reader, (client) => client.listResources())).toContain(seeded.completed.toLowerCase());
  });

  const calls: [string, (client: Client) => Promise<unknown>][] = [
    ...MCP_TOOLS.map((tool): [string, (client: Client) => Promise<unknown>] => [`tool ${tool.name}`, (client) => client.callTool({ name: tool.name, arguments: MCP_TOOL_CASES[tool.name]!() })]),
    ...MCP_RESOURCES.map((resource): [string, (client: Client) => Promise<unknown>] => [`resource ${resource.name}`, (client) => client.readResource({ uri: MCP_RESOURCE_CASES[resource.name]!() })]),
    ['resources/list', (client) => client.listResources()],
  ];
  const mcpCases = calls.flatMap(([name, call]) => ROLES.map((role) => [name, role, call] as const));

  it.each(mcpCases)('%s as %s without permission on the vault', async (name, role, call) => {
    const text = await mcpResponseOf({ user: `${role}@example.com`, roles: [role] }, call);
    for (const [what, planted] of Object.entries(PLANTED)) expect(text, `${name} returned the planted ${what}`).not.toContain(planted);
    for (const runId of [seeded.completed, seeded.decided, seeded.paused]) {
      // The run a call names itself may be echoed back (as "not found"); no other restricted run may appear.
      const named = { 'tool approve': seeded.paused, 'resource run': seeded.completed, 'resource trace': seeded.decided }[name];
      if (runId !== named) expect(text, `${name} named a restricted run`).not.toContain(runId.toLowerCase());
    }
  });
});

/**
 * The tool_loop's tools (issue 15 point 2): what a model calling retrieve, exact_lookup and
 * knowledge_facts reads in a run of each role. The plan is the vault reader's (it names the vault
 * among its sources, its reason node a tool loop), so the tools' own check of the run's principal
 * is what keeps the vault out — the same check the node executor's tools go through.
 */
describe('authorization matrix, tool_loop tools: no content of a source the caller may not read', () => {
  const GOAL = 'What is the checkout-api salary band in the payroll vault?';
  let plan: ExplainResult;
  let subject = '';

  beforeAll(async () => {
    const explain = await fixture.runtime.explain({ goal: GOAL, sources: [VAULT], principal: OWNER });
    const reason = explain.graph.nodes.find((node) => node.kind === 'reason')!;
    plan = { ...explain, graph: withNode(explain.graph, reason.id, (node) => ({ ...node, strategy: 'tool_loop' }) as typeof node) };
    const facts = await fixture.runtime.knowledge().explorer!.facts(VAULT);
    subject = facts.find((fact) => JSON.stringify(fact).toLowerCase().includes(PLANTED.fact))?.subject ?? '';
  });

  /** Every tool, with and without naming the vault, as one text. */
  async function toolResponsesOf(principal: Principal): Promise<string> {
    const { toolReads } = await toolReadsFor(fixture.plugins, { goal: GOAL, principal }, plan);
    const tools = runTools({ retrievers: new Map(fixture.plugins.retrievers.map((retriever) => [retriever.method, retriever])), retrieveMethod: 'bm25', sources: toolReads?.sources ?? [], ...(toolReads?.facts ? { facts: toolReads.facts } : {}), localOnly: true, sensitiveSources: [] });
    const reads = [];
    for (const sources of [undefined, [VAULT]]) {
      const narrowed = sources ? { sources } : {};
      reads.push(await tools.search({ how: 'retrieve', text: `checkout-api salary band ${PLANTED.chunk}`, k: 10, ...narrowed }));
      reads.push(await tools.search({ how: 'exact', text: '7731Mi', k: 10, ...narrowed }));
      reads.push(await tools.facts({ entity: subject, ...narrowed }));
    }
    return JSON.stringify({ sources: tools.sources, reads }).toLowerCase();
  }

  it('plants what it looks for: a reader of the vault gets its chunk and its fact through the tools', async () => {
    expect(plan.selectedSources).toContain(VAULT);
    expect(subject).not.toBe('');
    const text = await toolResponsesOf({ user: 'reader@example.com', roles: ['viewer', VAULT_READER] });
    expect(text).toContain(PLANTED.chunk);
    expect(text).toContain(PLANTED.fact);
  });

  it.each(ROLES)('tool_loop tools as %s without permission on the vault', async (role) => {
    const text = await toolResponsesOf({ user: `${role}@example.com`, roles: [role] });
    for (const [what, planted] of Object.entries(PLANTED)) expect(text, `a tool returned the planted ${what}`).not.toContain(planted);
    // The vault is not among what the tools may read, and a call naming it is told it is unknown.
    expect((JSON.parse(text) as { sources: string[] }).sources).not.toContain(VAULT);
    expect(text).toContain(`"unknownsources":["${VAULT}"]`);
  });
});
