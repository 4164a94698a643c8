/**
 * Compressed contexts with lineage through the real runtime on PGlite (issue 15 point 7): with a
 * context budget the demo's evidence exceeds, the planner compresses; the compressed context is
 * kept in the Knowledge Layer derived_from its chunks, served again for the same goal, and never
 * served after a cited source gets a new version (its node turns stale, naming that version).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_QUESTION, planDemoCorpus } from '../../ingest/demo-corpus';
import type { ExecutionGraph } from '../../runtime/ir/graph';
import { answerOutputsOf, type CompressedOutput } from '../../runtime/ir/node-outputs';
import { openRuntimeFixture, type RuntimeFixture } from '../../testing/runtime-fixture';
import type { PgKnowledge } from '../db/pg-knowledge';
import type { PgStore } from '../db/pg-store';
import { createTokenCounter } from '../models/token-counter';

let fixture: RuntimeFixture;
let knowledge: PgKnowledge;

beforeAll(async () => {
  // Plan cache off: each run plans afresh, so the reuse seen is the compressed-context store's.
  fixture = await openRuntimeFixture({ config: { retrieval: { context_token_budget: 250 }, plan_cache: { enabled: false } } });
  knowledge = fixture.plugins.knowledge as PgKnowledge;
  await knowledge.syncAll();
});

afterAll(async () => {
  await fixture?.close();
});

async function compressedOf(runId: string): Promise<CompressedOutput> {
  const record = await fixture.plugins.runStore.loadRun(runId);
  const graph = (record?.plan as { explain?: { graph?: ExecutionGraph } } | undefined)?.explain?.graph;
  const compressed = graph && answerOutputsOf(graph, record!.nodeOutcomes).compressed;
  if (!compressed) throw new Error(`run ${runId} has no compress output`);
  return compressed;
}

describe('compressed contexts kept with lineage', () => {
  let firstNode = '';
  let citedSource = '';

  it('keeps a query-aware compression as a summary derived from its chunks, with what it omitted', async () => {
    const result = await fixture.runtime.run({ goal: DEMO_QUESTION });
    expect(result.explain.chosen.choice.compression).toBe('sentence_select');
    const compressed = await compressedOf(result.runId);
    expect(compressed.servedFrom).toBeUndefined();
    expect(compressed.omitted.length).toBeGreaterThan(0);
    expect(compressed.omitted.every((omission) => (omission.sentences?.length ?? 0) > 0)).toBe(true);
    firstNode = compressed.storedAs!;
    expect(firstNode).toMatch(/^sum_/);
    const lineage = await knowledge.explorer.lineage(firstNode);
    expect(lineage.node).toMatchObject({ kind: 'summary', status: 'current' });
    const derivedFrom = lineage.chain.filter((step) => step.parentId === firstNode && step.via === 'derived_from').map((step) => step.id);
    expect(new Set(derivedFrom)).toEqual(new Set(compressed.lineage!.derivedFrom.map((entry) => entry.chunkId)));
    citedSource = result.citations[0].sourceName;
    expect(compressed.lineage!.refreshOn.map((entry) => entry.sourceName)).toContain(citedSource);
  });

  it('serves the kept compression for the same goal over the same chunks', async () => {
    const result = await fixture.runtime.run({ goal: DEMO_QUESTION });
    const compressed = await compressedOf(result.runId);
    expect(compressed.servedFrom).toBe(firstNode);
    expect(compressed.storedAs).toBeUndefined();
  });

  it('never serves it after a cited source gets a new version: the node turns stale and the context is compressed afresh', async () => {
    const planned = (await planDemoCorpus({ countTokens: createTokenCounter(), workDir: fixture.root })).find((source) => source.name === citedSource)!;
    const changed = [...planned.chunks, { uri: 'later-note.md', ordinal: 0, title: 'later note', text: 'A later note on checkout-api.', tokens: 7 }];
    const update = await (fixture.plugins.store as PgStore).ingest({ name: citedSource, kind: planned.kind }, changed, `${planned.contentHash}-compression-test`);
    await knowledge.syncSource(citedSource);
    const stale = await knowledge.explorer.lineage(firstNode);
    expect(stale.node.status).toBe('stale');
    expect(stale.node.statusReason).toContain(update.versionId);
    expect(await knowledge.compressedContexts.find((stale.node.subject ?? '').replace('compressed context ', ''))).toBeUndefined();

    const result = await fixture.runtime.run({ goal: DEMO_QUESTION });
    const compressed = await compressedOf(result.runId);
    expect(compressed.servedFrom).toBeUndefined();
    expect(compressed.storedAs).toBeDefined();
    expect(compressed.storedAs).not.toBe(firstNode);
    expect(compressed.lineage!.refreshOn).toContainEqual({ sourceName: citedSource, sourceVersionId: update.versionId });
  });
});
