import { describe, expect, it } from 'vitest';
import { RETRIEVER_CONTRACT, type RetrieverPlugin } from '../contracts/retriever';
import { createNode } from '../ir/graph';
import type { Hit, SourceKind } from '../types';
import { keepSourcesAboutGoal, scopeToEntities } from './entity-scope';
import { createNodeExecutor, type ExecutionDependencies, type RetrievedOutput } from './node-executors';

const hit = (chunkId: string, sourceName: string, sourceKind: SourceKind, text: string, rank = 1): Hit => ({
  chunkId, sourceName, sourceKind, sourceVersionId: `${sourceName}-1`, title: `${sourceName} ${chunkId}`, text, score: 10 - rank, rank, method: 'bm25', tokens: 30,
});

// Two incidents in one corpus: the question is about billing-worker, the demo's events are about checkout-api.
const BY_SOURCE: Record<string, readonly Hit[]> = {
  'billing-logs': [
    hit('bw1', 'billing-logs', 'logs', 'bw-01 billing-worker@1: migration still running migration=0042 elapsed=60s'),
    hit('uc1', 'billing-logs', 'logs', 'uc-01 usage-collector ERROR connection failed: certificate has expired', 2),
  ],
  'demo-events': [hit('oom', 'demo-events', 'events', 'Warning OOMKilled pod/checkout-api-7d9f8b6c5-q8m2n: Container checkout-api was OOMKilled')],
  'billing-docs': [hit('rb', 'billing-docs', 'docs', 'Workers waiting on Lock mean something holds a lock on invoices.')],
};

const perSourceRetriever: RetrieverPlugin = {
  contract: RETRIEVER_CONTRACT,
  method: 'bm25',
  capabilities: () => ({ method: 'bm25', available: true, latencyMs: 5 }) as ReturnType<RetrieverPlugin['capabilities']>,
  search: async (query) => query.sources.flatMap((source) => BY_SOURCE[source] ?? []),
};

const dependencies = (entities: readonly string[], goal: string): ExecutionDependencies => ({
  goal, identifiers: [], entities, retrievers: new Map([['bm25', perSourceRetriever]]),
  router: undefined as never, reasoners: new Map(), compressions: new Map(), verifiers: new Map(), countTokens: (text) => text.length, modelTimeoutMs: 1000,
});

const retrieve = (focus?: 'entities', perSource = true) =>
  createNode('retrieve', {
    id: 'retrieve-bm25', inputs: [], method: 'bm25', sources: Object.keys(BY_SOURCE), sourceKinds: 'all', k: 10, perSource,
    retry: { maxAttempts: 1, backoffMs: 0 }, timeoutMs: 1000, estimate: { tokens: 0, costUsd: 0, latencySeconds: 0 }, ...(focus ? { focus } : {}),
  });
const run = async (entities: readonly string[], focus?: 'entities', goal = 'Why did billing-worker stop producing invoices?') =>
  ((await createNodeExecutor(dependencies(entities, goal))(retrieve(focus), { attempt: 1, inputs: new Map(), signal: new AbortController().signal })).output as RetrievedOutput).hits.map((entry) => entry.chunkId).sort();

describe('stratified retrieval scoped to the goal entities', () => {
  it("drops a source none of whose hits mentions the goal's subject (the demo's OOMKilled events for a billing-worker question)", async () => {
    // Its log lines about another system (usage-collector) go too; billing-docs names no subject: gone.
    expect(await run(['billing-worker'])).toEqual(['bw1']);
  });

  it('keeps only hits about the subject in an entity-focused hop (the failure-cause probe)', async () => {
    expect(await run(['billing-worker'], 'entities')).toEqual(['bw1']);
  });

  it('changes nothing when the goal names nothing, or names nothing this corpus holds', async () => {
    expect(await run([], undefined, 'Why were invoices late?')).toEqual(['bw1', 'oom', 'rb', 'uc1']);
    expect(await run(['ledger-export'], undefined, 'Why was ledger-export late?')).toEqual(['bw1', 'oom', 'rb', 'uc1']);
  });

  it('scopes a goal naming nothing identifier-shaped by its spaced compounds only where the hits write them as one name', async () => {
    // "usage-collector" in a log line: the compound names a system.
    expect(await run([], undefined, 'Which usage collector errors came first?')).toEqual(['uc1']);
    // "still running" is written apart: phrasing, not a subject (freight dev d50: "new version" dropped the git commit).
    expect(await run([], undefined, 'Why is the migration still running?')).toEqual(['bw1', 'oom', 'rb', 'uc1']);
  });

  it("also scopes to identifier-shaped names of the goal that the intent analyzer did not list", async () => {
    expect(await run([])).toEqual(['bw1']);
  });

  it('does not scope to what the goal sets aside, nor search for it ("besides billing-worker, which …")', async () => {
    // Scoped to billing-worker, the usage-collector line the question asks for was dropped.
    expect(await run(['billing-worker'], undefined, 'Besides billing-worker, which other workers failed?')).toEqual(['bw1', 'oom', 'rb', 'uc1']);
    const searched: string[] = [];
    const spying: RetrieverPlugin = { ...perSourceRetriever, search: async (query) => (searched.push(query.text), perSourceRetriever.search(query)) };
    const deps = { ...dependencies(['billing-worker'], 'Besides billing-worker, which other workers failed?'), retrievers: new Map([['bm25', spying]]) };
    await createNodeExecutor(deps)(retrieve(), { attempt: 1, inputs: new Map(), signal: new AbortController().signal });
    expect(new Set(searched)).toEqual(new Set(['which other workers failed?']));
  });

  it('finds nothing in an entity-focused hop when no observation names the subject (not another system\'s failures)', async () => {
    expect(await run(['ledger-export'], 'entities', 'Why was ledger-export late?')).toEqual([]);
    expect(scopeToEntities([BY_SOURCE['demo-events'], BY_SOURCE['billing-docs']], ['shipment-events-value'], true)).toEqual([[], []]);
  });

  it("still answers the demo: checkout-api's pod names mention checkout-api", () => {
    const scoped = scopeToEntities([BY_SOURCE['demo-events'], BY_SOURCE['billing-logs']], ['checkout-api'], true);
    expect(scoped.map((list) => list.map((entry) => entry.chunkId))).toEqual([['oom'], []]);
  });
});

describe('one ranked list over several sources, scoped to the goal entities', () => {
  it("drops a source none of whose hits names the subject and keeps the rest in rank order", () => {
    const list = [BY_SOURCE['demo-events'][0], BY_SOURCE['billing-logs'][0], BY_SOURCE['billing-docs'][0], BY_SOURCE['billing-logs'][1]];
    expect(keepSourcesAboutGoal(list, ['billing-worker']).map((entry) => entry.chunkId)).toEqual(['bw1']);
    expect(keepSourcesAboutGoal(list, ['ledger-export'])).toEqual(list);
    expect(keepSourcesAboutGoal(BY_SOURCE['billing-logs'], ['billing-worker'])).toEqual([BY_SOURCE['billing-logs'][0]]);
  });

  it('applies to a retrieval that is not stratified', async () => {
    const output = await createNodeExecutor(dependencies(['billing-worker'], 'What is the memory limit of billing-worker?'))(retrieve(undefined, false), { attempt: 1, inputs: new Map(), signal: new AbortController().signal });
    expect((output.output as RetrievedOutput).hits.map((entry) => entry.chunkId).sort()).toEqual(['bw1']);
  });

  it('asks a search over several sources for more than k, so k hits remain once another system\'s source is dropped', async () => {
    // The other system's events lead the ranking: a search for exactly k would leave one billing hit of three.
    const ranked = [
      ...['e1', 'e2'].map((id, index) => hit(id, 'demo-events', 'events', `Warning OOMKilled pod/checkout-api-${id}: Container checkout-api was OOMKilled`, index + 1)),
      ...['b1', 'b2', 'b3'].map((id, index) => hit(id, 'billing-logs', 'logs', `bw-0${index} billing-worker@1: migration still running migration=0042 step=${id}`, index + 3)),
    ];
    const honoursK: RetrieverPlugin = { ...perSourceRetriever, search: async (query) => ranked.slice(0, query.k) };
    const node = createNode('retrieve', {
      id: 'retrieve-bm25', inputs: [], method: 'bm25', sources: ['demo-events', 'billing-logs'], sourceKinds: 'all', k: 3,
      retry: { maxAttempts: 1, backoffMs: 0 }, timeoutMs: 1000, estimate: { tokens: 0, costUsd: 0, latencySeconds: 0 },
    });
    const executor = createNodeExecutor({ ...dependencies(['billing-worker'], 'Why is billing-worker stuck on migration 0042?'), retrievers: new Map([['bm25', honoursK]]) });
    const output = await executor(node, { attempt: 1, inputs: new Map(), signal: new AbortController().signal });
    expect((output.output as RetrievedOutput).hits.map((entry) => entry.chunkId)).toEqual(['b1', 'b2', 'b3']);
  });

  it("drops another system's log lines from a source that names the subject, and keeps documents whole", () => {
    const runbook = [hit('rb1', 'billing-docs', 'docs', 'billing-worker reads invoices in batches of 500'), hit('rb2', 'billing-docs', 'docs', 'Workers waiting on Lock mean something holds a lock on invoices.', 2)];
    const scoped = scopeToEntities([BY_SOURCE['billing-logs'], runbook], ['billing-worker']);
    expect(scoped.map((list) => list.map((entry) => entry.chunkId))).toEqual([['bw1'], ['rb1', 'rb2']]);
  });
});
