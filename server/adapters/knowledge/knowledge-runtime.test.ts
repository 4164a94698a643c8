/**
 * The Knowledge Layer inside the real runtime on the demo incident: the contradiction the corpus
 * really holds (commit 48d4188 lowered the limit to 256Mi, the overview doc still says 512Mi)
 * reaches the answer as a caveat, dated facts read "as of" a day, and EXPLAIN rejects a source
 * derived from a superseded upstream with a reason naming the new version.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_QUESTION, DEMO_SOURCES, planDemoCorpus } from '../../ingest/demo-corpus';
import { openRuntimeFixture, type RuntimeFixture } from '../../testing/runtime-fixture';
import type { PgKnowledge } from '../db/pg-knowledge';
import type { PgStore } from '../db/pg-store';
import { createTokenCounter } from '../models/token-counter';

let fixture: RuntimeFixture;
let knowledge: PgKnowledge;

beforeAll(async () => {
  fixture = await openRuntimeFixture();
  knowledge = fixture.plugins.knowledge as PgKnowledge;
  // What the start-up hook does for data ingested before it ran (a no-op once wired at ingest).
  await knowledge.syncAll();
});

afterAll(async () => {
  await fixture?.close();
});

describe('Knowledge Layer on the demo incident', () => {
  it('finds the memory-limit contradiction between the deploy history and the overview doc, and no other', async () => {
    const contradictions = await knowledge.contradictionsAmong(DEMO_SOURCES.map((source) => source.name));
    expect(contradictions.map((entry) => `${entry.subject} ${entry.attribute}`)).toEqual(['checkout-api memory limit']);
    const [limit] = contradictions;
    expect(limit.values.map((entry) => `${entry.value} ${entry.sourceName}`)).toEqual(['256Mi demo-events', '256Mi demo-git', '256Mi demo-logs', '512Mi demo-docs']);
    const [commit] = await fixture.database.query<{ id: string }>(sql`select id from chunks where is_current and locator = 'commit 48d4188'`);
    expect((await knowledge.contradictions([commit.id])).map((entry) => entry.attribute)).toEqual(['memory limit']);
  });

  it('closes an older image tag with the newer commit instead of calling it a contradiction', async () => {
    const tags = (await knowledge.explorer.facts('demo-git')).filter((fact) => fact.attribute === 'image tag' && fact.validFrom !== null);
    const byValue = Object.fromEntries(tags.map((fact) => [fact.value, fact]));
    expect(byValue['2.14.1']).toMatchObject({ status: 'current', validTo: null });
    expect(byValue['2.14.0']).toMatchObject({ status: 'superseded', validTo: byValue['2.14.1'].validFrom });
  });

  it('reads the memory limit as of a day: 512Mi before commit 48d4188, both values after it', async () => {
    const valuesAt = async (validAt: string) =>
      [...new Set((await knowledge.memories.asOf({ validAt: new Date(validAt) }, { kinds: ['fact'], subject: 'checkout-api', attribute: 'memory limit' })).map((fact) => fact.value))].sort();
    expect(await valuesAt('2025-06-01T00:00:00Z')).toEqual(['512Mi']);
    expect(await valuesAt('2025-06-03T10:00:00Z')).toEqual(['256Mi', '512Mi']);
  });

  it('warns in the answer that the sources disagree', async () => {
    const result = await fixture.runtime.run({ goal: DEMO_QUESTION });
    expect(result.status).toBe('completed');
    // Either one entry per (value, source) or grouped per value ("256Mi (demo-events, demo-git) vs …").
    expect(result.caveats).toContainEqual(expect.stringMatching(/^Sources disagree on checkout-api memory limit: .*256Mi \(demo-[a-z, -]+\).* vs 512Mi \(demo-docs\)\.$/));
  });

  it('rejects a source derived from a superseded upstream in EXPLAIN, naming the new version', async () => {
    const store = fixture.plugins.store as PgStore;
    await store.ingest({ name: 'demo-digest', kind: 'docs' }, [{ uri: 'digest.md', ordinal: 0, title: 'digest', text: 'Digest of the checkout-api docs.', tokens: 6, metadata: { derivedFrom: 'demo-docs' } }], 'digest-1');
    await knowledge.syncSource('demo-digest');
    const before = await fixture.runtime.explain({ goal: DEMO_QUESTION });
    expect(before.rejectedSources.filter((entry) => entry.reason === 'stale')).toEqual([]);

    const docs = (await planDemoCorpus({ countTokens: createTokenCounter(), workDir: fixture.root })).find((source) => source.name === 'demo-docs')!;
    const changed = [...docs.chunks, { uri: 'checkout-api-overview.md', ordinal: 99, title: 'checkout-api service overview › Update', text: 'The memory limit is now 256Mi.', tokens: 8 }];
    const update = await store.ingest({ name: 'demo-docs', kind: 'docs' }, changed, `${docs.contentHash}-updated`);
    await knowledge.syncSource('demo-docs');

    const after = await fixture.runtime.explain({ goal: DEMO_QUESTION });
    const rejected = after.rejectedSources.find((entry) => entry.source === 'demo-digest');
    expect(rejected).toMatchObject({ reason: 'stale', detail: expect.stringContaining(`derived from demo-docs v1, which was superseded by v2 (${update.versionId})`) });
    expect(after.selectedSources).not.toContain('demo-digest');
    expect(after.selectedSources).toContain('demo-docs');
  });

  it("keeps a cited answer as a summary derived from its chunks, which turns stale when a cited source changes", async () => {
    const result = await fixture.runtime.run({ goal: DEMO_QUESTION });
    expect(result.status).toBe('completed');
    expect(result.citations.length).toBeGreaterThan(0);
    const answerId = result.answerNodeId!;
    expect(answerId).toBeDefined();
    const lineage = await knowledge.explorer.lineage(answerId);
    expect(lineage.node).toMatchObject({ kind: 'summary', status: 'current', text: result.answer });
    const cited = new Set(result.citations.map((citation) => citation.chunkId));
    const derivedFrom = lineage.chain.filter((step) => step.parentId === answerId && step.via === 'derived_from').map((step) => step.id);
    expect(new Set(derivedFrom)).toEqual(cited);
    const [row] = await fixture.database.query<{ run_id: string }>(sql`select metadata ->> 'runId' as run_id from knowledge_nodes where id = ${answerId}`);
    expect(row.run_id).toBe(result.runId);

    // A new version of a cited source: the answer no longer describes what the sources say.
    const citedSource = result.citations[0].sourceName;
    const planned = (await planDemoCorpus({ countTokens: createTokenCounter(), workDir: fixture.root })).find((source) => source.name === citedSource)!;
    const changed = [...planned.chunks, { uri: 'later-note.md', ordinal: 0, title: 'later note', text: 'A later note on checkout-api.', tokens: 7 }];
    const update = await (fixture.plugins.store as PgStore).ingest({ name: citedSource, kind: planned.kind }, changed, `${planned.contentHash}-answer-test`);
    await knowledge.syncSource(citedSource);
    const after = await knowledge.explorer.lineage(answerId);
    expect(after.node.status).toBe('stale');
    expect(after.node.statusReason).toContain(update.versionId);
  });
});

