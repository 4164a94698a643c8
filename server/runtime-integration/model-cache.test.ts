/**
 * The model-context cache end to end (issue 15 point 6): a real runtime on embedded PGlite, a priced
 * OpenAI-compatible tier on a loopback HTTP server that counts what reaches it. A repeated run is
 * answered from the cache (the server sees nothing), EXPLAIN ANALYZE and the model span say so, a
 * new version of the cited source drops the entry, and the planner's cache term reads the measured rate.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CACHE_HIT_BASE } from '../runtime/costmodel/units';
import { renderExplainTree } from '../runtime/explain/explain-tree';
import type { RunResult } from '../runtime';
import { startLoopbackOpenAIServer, type LoopbackOpenAIServer } from '../testing/loopback-openai-server';
import { openRuntimeFixture, type RuntimeFixture } from '../testing/runtime-fixture';

const GOAL = 'Explain why the ledger-sync rollout failed';
let server: LoopbackOpenAIServer;
let fixture: RuntimeFixture;
let notesDir: string;

const run = () => fixture.runtime.run({ goal: GOAL, sources: ['cache-notes'] });
const reasonCalls = (result: RunResult) => result.explain.analyze!.nodes.filter((node) => node.kind === 'reason').flatMap((node) => node.modelCalls ?? []);
const cachedRows = async (source: string) => Number((await fixture.database.query<{ n: number }>(sql`select count(*)::int as n from model_cache where ${source} = any(source_names)`))[0].n);

describe('model-context cache on embedded PGlite with a loopback model', () => {
  beforeAll(async () => {
    server = await startLoopbackOpenAIServer({ text: 'The ledger-sync rollout failed because its memory limit is 128Mi [1].', usage: { prompt_tokens: 900, completion_tokens: 20, prompt_tokens_details: { cached_tokens: 640 } } });
    fixture = await openRuntimeFixture({
      config: {
        // The scripted replies are no judge verdicts; verification that gates (its judge call, its retry) is not the subject here.
        verification: { default: false, judge: false },
        models: {
          tiers: [
            { name: 'cheap', provider: 'openai-compatible', base_url: server.baseURL, model: 'loop-1', quality_prior: 0.9, input_usd_per_million: 1, output_usd_per_million: 2 },
            { name: 'local', provider: 'extractive' },
          ],
        },
        model_cache: { enabled: true, ttl_seconds: 600 },
        // Every explain plans afresh, so its cache term reads the tallies as they are now.
        plan_cache: { enabled: false },
      },
    });
    notesDir = join(fixture.root, 'notes');
    mkdirSync(notesDir);
    writeFileSync(join(notesDir, 'ledger.md'), '# ledger-sync\n\nThe ledger-sync rollout failed: its memory limit is 128Mi.\n');
    await fixture.runtime.ingest(notesDir, { source: 'cache-notes' });
  }, 120_000);

  afterAll(async () => {
    await fixture?.close();
    await server?.close();
  });

  it('plans onto the loopback tier (precondition: otherwise nothing reaches the server)', async () => {
    expect((await fixture.runtime.explain({ goal: GOAL, sources: ['cache-notes'] })).chosen.choice.modelTier).toBe('cheap');
  });

  it('answers a repeated run from the cache: the model server sees one call, the second run spends nothing', async () => {
    const before = server.calls.length;
    const first = await run();
    expect(server.calls.length - before).toBe(1);
    expect(reasonCalls(first)).toEqual([{ tier: 'cheap', modelId: 'loop-1', cache: 'miss', providerCachedInputTokens: 640 }]);

    const second = await run();
    expect(server.calls.length - before).toBe(1);
    expect(second.answer).toBe(first.answer);
    expect(reasonCalls(second)).toEqual([{ tier: 'cheap', modelId: 'loop-1', cache: 'hit', savedTokens: 920 }]);
    const reason = second.explain.analyze!.nodes.find((node) => node.kind === 'reason')!;
    expect(reason.actual).toMatchObject({ tokens: 0, costUsd: 0 });
    expect(renderExplainTree(second.explain)).toContain('[model calls: cheap/loop-1 cache hit, saved 920 tokens]');
    expect(renderExplainTree(first.explain)).toContain('[model calls: cheap/loop-1 cache miss, provider cached 640 input tokens]');

    // Observed as a hit, not as a free plan: no spend observation teaches the cost model $0.
    const observed = async (runId: string) => (await fixture.plugins.observationStore.all({ estimator: first.explain.costModel.version })).filter((observation) => observation.runId === runId);
    const fields = async (runId: string) => new Map((await observed(runId)).map((observation) => [observation.field, observation.actual]));
    const missFields = await fields(first.runId);
    expect(missFields.get('cacheHit')).toBe(0);
    expect(missFields.get('costUsd')).toBeGreaterThan(0);
    const hitFields = await fields(second.runId);
    expect(hitFields.get('cacheHit')).toBe(1);
    expect(['tokens', 'costUsd', 'latencySeconds'].filter((field) => hitFields.has(field as never))).toEqual([]);
    expect(hitFields.has('accuracy')).toBe(true);

    const spans = (await fixture.runtime.getRun(second.runId)).spans.filter((span) => span.category === 'model');
    expect(spans.map((span) => span.attributes)).toEqual([expect.objectContaining({ cache: 'hit', cacheSavedTokens: 920 })]);
    const firstSpans = (await fixture.runtime.getRun(first.runId)).spans.filter((span) => span.category === 'model');
    expect(firstSpans.map((span) => span.attributes)).toEqual([expect.objectContaining({ cache: 'miss', cachedInputTokens: 640 })]);
  });

  it('serves no hit once the cited source has a new version, and caches the new answer', async () => {
    await run();
    expect(await cachedRows('cache-notes')).toBeGreaterThan(0);
    writeFileSync(join(notesDir, 'ledger.md'), '# ledger-sync\n\nThe ledger-sync rollout failed: its memory limit is 96Mi.\n');
    await fixture.runtime.ingest(notesDir, { source: 'cache-notes' });
    // The ingest's change hook dropped the entries before anything could read them.
    expect(await cachedRows('cache-notes')).toBe(0);
    const before = server.calls.length;
    const changed = await run();
    expect(server.calls.length - before).toBe(1);
    expect(reasonCalls(changed)[0].cache).toBe('miss');
    expect(reasonCalls(await run())[0].cache).toBe('hit');
    expect(server.calls.length - before).toBe(1);
  });

  it("raises the planner's cache term for the model from the measured hit rate", async () => {
    const explain = await fixture.runtime.explain({ goal: GOAL, sources: ['cache-notes'] });
    expect(explain.chosen.choice.modelTier).toBe('cheap');
    expect(explain.chosen.estimates.cacheHit.value).toBeGreaterThan(CACHE_HIT_BASE);
  });
});
