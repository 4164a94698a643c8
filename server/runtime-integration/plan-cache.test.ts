/**
 * Plan cache soundness on the real database: a cached plan is reused only when intent, sources,
 * policy and constraints all match; a changed source retires the plans built on it while its old
 * version stays queryable.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_QUESTION } from '../ingest/demo-corpus';
import { openRuntimeFixture, type RuntimeFixture } from '../testing/runtime-fixture';

const NOTES = 'it-notes';
const NOTES_GOAL = 'Explain why the payments-gateway rollout failed';
let fixture: RuntimeFixture;
let notesDir: string;
let demoFingerprint: string;

function writeNotes(limit: string): void {
  writeFileSync(join(notesDir, 'payments-gateway.md'), `# payments-gateway\n\nThe payments-gateway rollout failed because its memory limit is ${limit}.\n`);
  writeFileSync(join(notesDir, 'rollback.md'), '# Rolling back\n\nUse `kubectl rollout undo deployment/payments-gateway`.\n');
}

const cachedPlansOn = async (source: string) =>
  Number((await fixture.database.query<{ count: number }>(sql`select count(*)::int as count from plan_cache where ${source} = any(source_names)`))[0].count);

describe('plan cache soundness on embedded PGlite', () => {
  beforeAll(async () => {
    fixture = await openRuntimeFixture();
    notesDir = join(fixture.root, 'notes');
    mkdirSync(notesDir);
    writeNotes('128Mi');
  });

  afterAll(async () => {
    await fixture?.close();
  });

  it('keys on constraints and weights: each envelope gets its own plan, and the original still hits', async () => {
    const plain = await fixture.runtime.explain({ goal: DEMO_QUESTION });
    const capped = await fixture.runtime.explain({ goal: DEMO_QUESTION, constraints: { max_cost_usd: 0.5 } });
    const weighted = await fixture.runtime.explain({ goal: DEMO_QUESTION, weights: { lat: 2 } });
    demoFingerprint = plain.planCache.key.sourceFingerprint;
    expect([plain.planCache.status, capped.planCache.status, weighted.planCache.status]).toEqual(['miss', 'miss', 'miss']);
    expect(capped.planCache.key.constraintEnvelope).not.toBe(plain.planCache.key.constraintEnvelope);
    expect(weighted.planCache.key.constraintEnvelope).not.toBe(plain.planCache.key.constraintEnvelope);
    expect(capped.planCache.key.intent).toBe(plain.planCache.key.intent);
    // The constraints are part of the plan identity, so the hash differs even when the choice is the same.
    expect(capped.planHash).not.toBe(plain.planHash);
    expect(capped.constraints.max_cost_usd).toBe(0.5);
    expect(plain.constraints.max_cost_usd).toBeUndefined();
    expect(await fixture.count('plan_cache')).toBe(3);
    const again = await fixture.runtime.explain({ goal: DEMO_QUESTION });
    expect(again.planCache.status).toBe('hit');
    expect(again.planHash).toBe(plain.planHash);
    const cappedAgain = await fixture.runtime.explain({ goal: DEMO_QUESTION, constraints: { max_cost_usd: 0.5 } });
    expect(cappedAgain.planCache.status).toBe('hit');
    expect(cappedAgain.planHash).toBe(capped.planHash);
  });

  it('keys on the selected sources', async () => {
    const logsOnly = await fixture.runtime.explain({ goal: DEMO_QUESTION, sources: ['demo-logs'] });
    const all = await fixture.runtime.explain({ goal: DEMO_QUESTION });
    expect(logsOnly.planCache.status).toBe('miss');
    expect(logsOnly.selectedSources).toEqual(['demo-logs']);
    expect(logsOnly.planCache.key.sourceFingerprint).not.toBe(all.planCache.key.sourceFingerprint);
  });

  it('re-ingesting a changed source misses afterwards, invalidates the plans on it, and keeps the old version', async () => {
    const { sources: [ingested] } = await fixture.runtime.ingest(notesDir, { source: NOTES });
    expect(ingested).toMatchObject({ source: NOTES, changed: true, documents: 2 });
    const request = { goal: NOTES_GOAL, sources: [NOTES] };
    const before = await fixture.runtime.explain(request);
    expect(before.planCache.status).toBe('miss');
    expect((await fixture.runtime.explain(request)).planCache.status).toBe('hit');
    expect(await cachedPlansOn(NOTES)).toBe(1);

    // Same content: a no-op ingest keeps the cached plan.
    const { sources: [unchanged] } = await fixture.runtime.ingest(notesDir, { source: NOTES });
    expect(unchanged).toMatchObject({ changed: false, versionId: ingested.versionId });
    expect((await fixture.runtime.explain(request)).planCache.status).toBe('hit');

    writeNotes('96Mi');
    const { sources: [changed] } = await fixture.runtime.ingest(notesDir, { source: NOTES });
    expect(changed.changed).toBe(true);
    expect(changed.versionId).not.toBe(ingested.versionId);
    expect(await cachedPlansOn(NOTES)).toBe(0);

    const after = await fixture.runtime.explain(request);
    expect(after.planCache.status).toBe('miss');
    expect(after.planCache.key.sourceFingerprint).not.toBe(before.planCache.key.sourceFingerprint);
    expect(after.planHash).not.toBe(before.planHash);
    expect((await fixture.runtime.explain(request)).planCache.status).toBe('hit');

    const current = (await fixture.plugins.store.listSources()).find((source) => source.name === NOTES);
    expect(current?.versionId).toBe(changed.versionId);
    const versions = await fixture.database.query<{ id: string; version_no: number; superseded: boolean }>(
      sql`select v.id, v.version_no, v.superseded_at is not null as superseded from source_versions v join sources s on s.id = v.source_id where s.name = ${NOTES} order by v.version_no`,
    );
    expect(versions.map((version) => [version.id, version.version_no, version.superseded])).toEqual([
      [ingested.versionId, 1, true],
      [changed.versionId, 2, false],
    ]);
    const oldChunks = await fixture.database.query<{ count: number; current: number }>(
      sql`select count(*)::int as count, count(*) filter (where is_current)::int as current from chunks where version_id = ${ingested.versionId}`,
    );
    expect(oldChunks[0]).toEqual({ count: expect.any(Number), current: 0 });
    expect(oldChunks[0].count).toBeGreaterThan(0);
  });

  it('a new source changes the all-sources fingerprint, so the demo plan is re-planned', async () => {
    // The first test cached this request before it-notes existed.
    const all = await fixture.runtime.explain({ goal: DEMO_QUESTION });
    expect(all.planCache.status).toBe('miss');
    expect(all.planCache.key.sourceFingerprint).not.toBe(demoFingerprint);
    const cached = await fixture.runtime.explain({ goal: DEMO_QUESTION });
    expect(cached.planCache.status).toBe('hit');
    expect(cached.planHash).toBe(all.planHash);
  });
});
