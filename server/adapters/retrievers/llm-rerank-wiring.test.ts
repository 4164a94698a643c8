/**
 * The bootstrap wiring of the two LLM retrieval parts, end to end through ContextRuntime with a
 * real loopback chat-completions server as a non-local tier: llm-rerank is registered over bm25,
 * the `linear` and `llm` Reranker plugins beside it (the same instances the composite retrievers
 * call), and an ingest adds OpenIE links to the graph.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLoopbackOpenAIServer, type LoopbackOpenAIServer } from '../../testing/loopback-openai-server';
import { openRuntimeFixture, type RuntimeFixture } from '../../testing/runtime-fixture';
import { LinearReranker } from './linear-reranker';
import { LlmRerankRetriever } from './llm-rerank-retriever';
import { RerankRetriever } from './rerank-retriever';

let server: LoopbackOpenAIServer;
let fixture: RuntimeFixture;

beforeAll(async () => {
  // One reply both OpenIE prompts can read: the NER step takes named_entities, the triple step triples.
  server = await startLoopbackOpenAIServer({ text: '{"named_entities": ["Zephyr Cluster"], "triples": [["Zephyr Cluster", "stores", "ledger shards"]]}' });
  fixture = await openRuntimeFixture({
    config: {
      demo: { load_on_start: false },
      // The scripted replies are no cited answers; verification that gates (its judge call, its retry) is not the subject here.
      verification: { default: false, judge: false },
      models: {
        tiers: [
          { name: 'local', provider: 'extractive' },
          // A loopback URL counts as local unless the config says otherwise; here it stands in for a hosted tier.
          { name: 'remote', provider: 'openai-compatible', base_url: server.baseURL, model: 'remote-1', local: false, input_usd_per_million: 1, output_usd_per_million: 2 },
        ],
      },
    },
  });
});

afterAll(async () => {
  await fixture?.close();
  await server?.close();
});

describe('bootstrap wiring of llm-rerank and OpenIE', () => {
  it('registers llm-rerank over bm25 with the remote tier and its cost', () => {
    const reranker = fixture.plugins.retrievers.find((retriever) => retriever.method === 'llm-rerank');
    expect(reranker?.capabilities()).toMatchObject({ available: true, composedOf: ['bm25'], modelTier: 'remote' });
    expect((reranker!.capabilities() as unknown as { costUsdPerQuery: number }).costUsdPerQuery).toBeGreaterThan(0);
  });

  it('adds OpenIE passage–entity links at ingest, and reranks through the tier', async () => {
    const notes = join(fixture.root, 'notes');
    mkdirSync(notes);
    writeFileSync(join(notes, 'storage.md'), '# Storage\n\nThe primary database keeps ledger rows for the payments team.\n');
    writeFileSync(join(notes, 'backups.md'), '# Backups\n\nnightly backups copy every ledger table to cold storage.\n');
    const before = server.requests.length;
    await fixture.runtime.ingest(notes, { source: 'notes' });
    expect(server.requests.length - before).toBeGreaterThanOrEqual(4);
    const rows = await fixture.database.query<{ name: string; passages: number }>(sql`
      select entities.name, count(*)::int as passages from graph_passage_entities links
      join graph_entities entities on entities.id = links.entity_id
      where links.role = 'openie' group by 1 order by 1`);
    expect(rows).toEqual([{ name: 'ledger shards', passages: 2 }, { name: 'zephyr cluster', passages: 2 }]);
    const [relations] = await fixture.database.query<{ count: number }>(sql`select count(*)::int as count from graph_entity_relations`);
    expect(relations.count).toBe(2);

    server.reply({ text: '{"grades":[{"id":1,"grade":0},{"id":2,"grade":3}]}' });
    const reranker = fixture.plugins.retrievers.find((retriever) => retriever.method === 'llm-rerank')!;
    const bm25 = fixture.plugins.retrievers.find((retriever) => retriever.method === 'bm25')!;
    const query = { text: 'ledger', k: 2, sources: ['notes'] };
    const first = await bm25.search(query);
    expect(first).toHaveLength(2);
    const reranked = await reranker.search(query);
    expect(reranked.map((hit) => hit.chunkId)).toEqual([first[1].chunkId, first[0].chunkId]);
  });

  it("puts the reranker's spend on its retrieve node in EXPLAIN ANALYZE and in the run's totals", async () => {
    server.reply({ text: '{"grades":[{"id":1,"grade":3},{"id":2,"grade":1}]}', usage: { prompt_tokens: 700, completion_tokens: 30 } });
    const request = { goal: 'Where are the ledger rows kept?', sources: ['notes'] };
    const planned = await fixture.runtime.explain(request);
    // An operator's edit swaps the first retrieval for llm-rerank (the planner may rank it lower here).
    const first = planned.graph.nodes.find((node) => node.kind === 'retrieve')!;
    const graph = { version: 1, nodes: planned.graph.nodes.map((node) => (node.id === first.id ? { ...node, method: 'llm-rerank', perSource: false } : node)) };
    const result = await fixture.runtime.runEditedPlan(request, graph);
    const analyzed = result.explain.analyze!.nodes.find((node) => node.nodeId === first.id)!;
    const priced = (700 * 1 + 30 * 2) / 1e6;
    expect(analyzed.actual).toMatchObject({ modelTokens: 730, costUsd: expect.closeTo(priced, 12) });
    expect(result.explain.analyze!.totals.actual.costUsd).toBeGreaterThanOrEqual(priced - 1e-12);
    // Every model call's tokens plus the reranker's: a decomposing plan has a bridge hop's reason node beside the answer's.
    const reasonTokens = result.explain.analyze!.nodes.filter((node) => node.kind === 'reason').reduce((sum, node) => sum + (node.actual?.tokens ?? 0), 0);
    expect(reasonTokens).toBeGreaterThan(0);
    expect(result.explain.analyze!.totals.actual.tokens).toBe(reasonTokens + 730);
    const [stored] = await fixture.database.query<{ cost_usd: number }>(sql`select cost_usd from runs where id = ${result.runId}`);
    expect(Number(stored.cost_usd)).toBeCloseTo(result.explain.analyze!.totals.actual.costUsd, 9);
  });

  it('registers the linear and llm Reranker plugins, the same instances rerank and llm-rerank call', () => {
    const rerankers = new Map((fixture.plugins.rerankers ?? []).map((reranker) => [reranker.method, reranker]));
    expect([...rerankers.keys()]).toEqual(['linear', 'llm']);
    expect(rerankers.get('linear')).toBeInstanceOf(LinearReranker);
    expect(rerankers.get('llm')!.capabilities()).toMatchObject({ available: true, sendsPassagesOffMachine: true, modelTier: 'remote' });
    const rerank = fixture.plugins.retrievers.find((retriever) => retriever.method === 'rerank') as RerankRetriever;
    const llmRerank = fixture.plugins.retrievers.find((retriever) => retriever.method === 'llm-rerank') as LlmRerankRetriever;
    expect(rerank.reranker).toBe(rerankers.get('linear'));
    expect(llmRerank.reranker).toBe(rerankers.get('llm'));
  });

  it("puts an llm rerank node's spend on that node in an edited plan", async () => {
    server.reply({ text: '{"grades":[{"id":1,"grade":0},{"id":2,"grade":3}]}', usage: { prompt_tokens: 500, completion_tokens: 20 } });
    const request = { goal: 'Where are the ledger rows kept?', sources: ['notes'] };
    const planned = await fixture.runtime.explain(request);
    const first = planned.graph.nodes.find((node) => node.kind === 'retrieve')!;
    const rewired = planned.graph.nodes.map((node) => (node.kind === 'retrieve' ? node : { ...node, inputs: node.inputs.map((input) => (input === first.id ? 'rerank-llm' : input)) }));
    const graph = { version: 1, nodes: [...rewired, { id: 'rerank-llm', kind: 'rerank', inputs: [first.id], method: 'llm', topN: 5 }] };
    const result = await fixture.runtime.runEditedPlan(request, graph);
    expect(result.status).toBe('completed');
    const analyzed = result.explain.analyze!.nodes.find((node) => node.nodeId === 'rerank-llm')!;
    expect(analyzed.actual).toMatchObject({ modelTokens: 520, costUsd: expect.closeTo((500 * 1 + 20 * 2) / 1e6, 12) });
    // Estimated from the reranker's own cost profile, as the planner places no rerank node.
    expect(analyzed.estimate.costUsd).toBeGreaterThan(0);
    expect(analyzed.estimate.modelTokens).toBeGreaterThan(0);
  });

  it('refuses an llm rerank node for a goal policy keeps on local models, naming the field', async () => {
    const request = { goal: 'Which passwords guard the ledger rows?', sources: ['notes'] };
    const planned = await fixture.runtime.explain(request);
    expect(planned.graph.nodes.find((node) => node.kind === 'reason')).toMatchObject({ localOnly: true });
    const first = planned.graph.nodes.find((node) => node.kind === 'retrieve')!;
    const rewired = planned.graph.nodes.map((node) => (node.kind === 'retrieve' ? node : { ...node, inputs: node.inputs.map((input) => (input === first.id ? 'rerank-llm' : input)) }));
    const graph = { version: 1, nodes: [...rewired, { id: 'rerank-llm', kind: 'rerank', inputs: [first.id], method: 'llm', topN: 5 }] };
    await expect(fixture.runtime.runEditedPlan(request, graph)).rejects.toMatchObject({ code: 'INVALID_GRAPH', field: 'graph.nodes.rerank-llm.method', message: expect.stringMatching(/local models; reranker "llm" sends passages to a remote model/) });
    // The linear reranker runs on the machine: allowed for the same goal.
    const local = await fixture.runtime.runEditedPlan(request, { ...graph, nodes: graph.nodes.map((node) => (node.id === 'rerank-llm' ? { ...node, method: 'linear' } : node)) });
    expect(local.status).toBe('completed');
    // Likewise an edit that swaps the retrieval itself for llm-rerank.
    const swapped = { version: 1, nodes: planned.graph.nodes.map((node) => (node.id === first.id ? { ...node, method: 'llm-rerank', perSource: false } : node)) };
    await expect(fixture.runtime.runEditedPlan(request, swapped)).rejects.toMatchObject({ code: 'INVALID_GRAPH', field: `graph.nodes.${first.id}.method`, message: expect.stringMatching(/local models; retriever "llm-rerank" sends passages to a remote model/) });
  });
});
