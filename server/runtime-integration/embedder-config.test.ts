/**
 * The `embeddings` and `retrieval.hybrid` config sections, end to end through bootstrap on the
 * real embedded database: an openai-compatible embedder (a loopback server speaking the OpenAI
 * embeddings wire protocol stands in for Ollama) embeds the demo corpus at start, dense searches
 * in its vector space, and hybrid fuses with the operator's weights. A bad section names its key.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { stringify } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ContextRuntime } from '../bootstrap';
import type { HybridRetriever } from '../adapters/retrievers/hybrid-retriever';
import type { ContextRuntimeError } from '../runtime/errors';
import { type LoopbackEmbeddingsServer, startLoopbackEmbeddingsServer } from '../testing/loopback-embeddings-server';
import { openRuntimeFixture, type RuntimeFixture } from '../testing/runtime-fixture';

let server: LoopbackEmbeddingsServer;
let fixture: RuntimeFixture;

beforeAll(async () => {
  server = await startLoopbackEmbeddingsServer({ dimensions: 16 });
  fixture = await openRuntimeFixture({
    config: {
      embeddings: { provider: 'openai-compatible', name: 'ollama', model: 'nomic-embed-text', base_url: server.baseURL },
      retrieval: { hybrid: { rrf_k: 60, dense_weight: 0.5 } },
    },
  });
});

afterAll(async () => {
  await fixture?.close();
  await server?.close();
});

const retriever = (method: string) => fixture.plugins.retrievers.find((candidate) => candidate.method === method)!;

describe('configured embedder and hybrid weights', () => {
  it('embeds the corpus through the provider at start and searches in its space', async () => {
    expect(server.requests.some((request) => request.path === '/v1/embeddings' && (request.body as { model?: string }).model === 'nomic-embed-text')).toBe(true);
    const rows = await fixture.database.query<{ embedder_id: string; chunks: number }>(sql`select embedder_id, count(*)::int as chunks from chunk_embeddings group by embedder_id`);
    const [chunks] = await fixture.database.query<{ count: number }>(sql`select count(*)::int as count from chunks where is_current and not lookup_only`);
    expect(rows).toEqual([{ embedder_id: 'ollama:nomic-embed-text', chunks: chunks.count }]);
    const dense = retriever('dense');
    expect(dense.capabilities().available).toBe(true);
    const before = server.requests.length;
    const hits = await dense.search({ text: 'checkout-api OOMKilled memory limit', k: 3, sources: ['demo-logs', 'demo-events', 'demo-docs', 'demo-git'] });
    expect(hits.length).toBeGreaterThan(0);
    expect(server.requests.length).toBe(before + 1); // the query itself is embedded by the provider
  });

  it("fuses with the operator's weights, keeping the measured default for the keys left unset", () => {
    expect((retriever('hybrid') as HybridRetriever).options).toEqual({ rrfK: 60, lexicalWeight: 1, semanticWeight: 0.5, depth: 100 });
  });

  it('an ingest cancelled while its passages are being embedded aborts that call and rejects as cancelled', async () => {
    const folder = join(fixture.root, 'cancelled-notes');
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, 'runbook.md'), '# Ledger rebalancing\n\nThe ledger sharding scheme needs weekly rebalancing across eight databases.\n');
    server.configure({ delayMs: 30_000 });
    try {
      const before = { requests: server.requests.length, abandoned: server.abandoned };
      const controller = new AbortController();
      const ingest = fixture.runtime.ingest(folder, { source: 'cancelled-notes', signal: controller.signal });
      ingest.catch(() => undefined);
      await expect.poll(() => server.requests.length, { timeout: 30_000 }).toBeGreaterThan(before.requests);
      const started = performance.now();
      const reason = new Error('ingest cancelled by its caller');
      controller.abort(reason);
      // The caller's reason becomes the runtime's typed CANCELLED error (mapped once, a 409 over HTTP).
      await expect(ingest).rejects.toMatchObject({ code: 'CANCELLED' });
      expect(performance.now() - started).toBeLessThan(10_000);
      await expect.poll(() => server.abandoned).toBe(before.abandoned + 1);
      // The passages are stored; their vectors wait for the next ingest or start.
      expect((await fixture.runtime.sources()).map((source) => source.name)).toContain('cancelled-notes');
    } finally {
      server.configure({ delayMs: 0 });
    }
  }, 60_000);

  it('refuses an openai-compatible embedder without base_url or model, naming the key', async () => {
    const path = join(fixture.root, 'bad-embeddings.yaml');
    writeFileSync(path, stringify({ database: { data_dir: join(fixture.root, 'other') }, embeddings: { provider: 'openai-compatible', model: 'nomic-embed-text' } }));
    const error = (await ContextRuntime.fromConfig(path).then(
      () => undefined,
      (reason: unknown) => reason,
    )) as ContextRuntimeError;
    expect(error.code).toBe('INVALID_CONFIG');
    expect(error.message).toContain('embeddings.base_url: openai-compatible embeddings need base_url');
  });
});
