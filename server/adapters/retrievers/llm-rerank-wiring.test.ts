/**
 * The bootstrap wiring of the two LLM retrieval parts, end to end through ContextRuntime with a
 * real loopback chat-completions server as a non-local tier: llm-rerank is registered over bm25,
 * and an ingest adds OpenIE links to the graph.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLoopbackOpenAIServer, type LoopbackOpenAIServer } from '../../testing/loopback-openai-server';
import { openRuntimeFixture, type RuntimeFixture } from '../../testing/runtime-fixture';

let server: LoopbackOpenAIServer;
let fixture: RuntimeFixture;

beforeAll(async () => {
  // One reply both OpenIE prompts can read: the NER step takes named_entities, the triple step triples.
  server = await startLoopbackOpenAIServer({ text: '{"named_entities": ["Zephyr Cluster"], "triples": [["Zephyr Cluster", "stores", "ledger shards"]]}' });
  fixture = await openRuntimeFixture({
    config: {
      demo: { load_on_start: false },
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
    const reason = result.explain.analyze!.nodes.find((node) => node.kind === 'reason')!;
    expect(result.explain.analyze!.totals.actual.tokens).toBe(reason.actual!.tokens + 730);
    const [stored] = await fixture.database.query<{ cost_usd: number }>(sql`select cost_usd from runs where id = ${result.runId}`);
    expect(Number(stored.cost_usd)).toBeCloseTo(result.explain.analyze!.totals.actual.costUsd, 9);
  });
});
