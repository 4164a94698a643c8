/**
 * The runtime's source-read cache on the real database: plan() reads the source list and
 * fingerprints from memory between writes, and no plan after a write sees what was there before
 * it — whichever way the write came (the runtime's ingest, the store's own, a source marked stale).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PgStore } from '../adapters/db/pg-store';
import { openRuntimeFixture, type RuntimeFixture } from '../testing/runtime-fixture';

const GOAL = 'Explain why the ledger-sync rollout failed';
let fixture: RuntimeFixture;
let notesDir: string;

/** The uncached plan: every call plans, so what it read is what it shows. */
const plan = () => fixture.runtime.plan({ goal: GOAL });
const fingerprintOf = async () => (await plan()).explain.planCache.key.sourceFingerprint;

describe('source-read cache on embedded PGlite', () => {
  beforeAll(async () => {
    fixture = await openRuntimeFixture({ config: { plan_cache: { enabled: false } } });
    notesDir = join(fixture.root, 'notes');
    mkdirSync(notesDir);
    writeFileSync(join(notesDir, 'ledger.md'), '# ledger-sync\n\nThe ledger-sync rollout failed: its memory limit is 128Mi.\n');
    await fixture.runtime.ingest(notesDir, { source: 'cache-notes' });
  });

  afterAll(async () => {
    await fixture?.close();
  });

  it('sees a new version ingested through the runtime in the very next plan', async () => {
    const before = await fingerprintOf();
    expect(await fingerprintOf()).toBe(before);
    writeFileSync(join(notesDir, 'ledger.md'), '# ledger-sync\n\nThe ledger-sync rollout failed: its memory limit is 256Mi.\n');
    await fixture.runtime.ingest(notesDir, { source: 'cache-notes' });
    const after = await fingerprintOf();
    expect(after).not.toBe(before);
    const current = (await fixture.runtime.sources()).find((source) => source.name === 'cache-notes');
    expect(after).toBe(await fixture.plugins.knowledge.fingerprint((await plan()).explain.selectedSources));
    expect(current?.versionId).toBe((await fixture.plugins.knowledge.sources()).find((source) => source.name === 'cache-notes')?.versionId);
  });

  it('sees a source the store wrote directly (its change hook) and one it marked stale', async () => {
    const store = fixture.plugins.store as PgStore;
    await store.ingest({ name: 'cache-direct', kind: 'docs' }, [{ uri: 'direct.md', ordinal: 0, title: 'direct', text: 'ledger-sync memory notes', tokens: 4 }], 'direct-1');
    expect((await plan()).explain.selectedSources).toContain('cache-direct');
    await store.markStale('cache-direct', 'its upstream moved on');
    const planned = await plan();
    expect(planned.explain.selectedSources).not.toContain('cache-direct');
    expect(planned.explain.rejectedSources).toContainEqual(expect.objectContaining({ source: 'cache-direct', reason: 'stale' }));
  });

  it('answers repeated plans without reading the sources again', async () => {
    await plan();
    const knowledge = fixture.plugins.knowledge;
    let reads = 0;
    const original = knowledge.sources.bind(knowledge);
    knowledge.sources = async () => {
      reads++;
      return original();
    };
    try {
      await plan();
      await plan();
      expect(reads).toBe(0);
    } finally {
      knowledge.sources = original;
    }
  });
});
