import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStores, type Stores } from '../db/open-stores';

// The memory lifecycle on the real embedded Postgres: promote, supersede, expire, compact, and
// bi-temporal reads (valid time × transaction time).
const root = mkdtempSync(path.join(tmpdir(), 'cr-memory-store-'));
let stores: Stores;
let factId = '';

const text = (body: string) => ({ uri: 'sizing.md', ordinal: 0, title: 'checkout-api sizing', text: body, tokens: 8 });
const pause = () => new Promise((resolve) => setTimeout(resolve, 5));

beforeAll(async () => {
  stores = await openStores({ dataDir: path.join(root, 'pglite') });
  await stores.store.ingest({ name: 'sizing', kind: 'docs' }, [text('The checkout-api memory limit is 512Mi.')], 'sizing-1');
  await stores.knowledge.syncSource('sizing');
  [{ id: factId }] = await stores.database.query<{ id: string }>(sql`select id from knowledge_nodes where kind = 'fact' and status = 'current'`);
});

afterAll(async () => {
  await stores?.close();
  rmSync(root, { recursive: true, force: true });
});

describe('MemoryStore', () => {
  const memories = () => stores.knowledge.memories;
  let promotedId = '';
  let beforeSupersede: Date;
  const june = new Date('2025-06-02T16:41:00Z');

  it('promotes a current fact to a memory derived from it, with its confidence', async () => {
    const memory = await memories().promote(factId, { confidence: 0.7, validFrom: new Date('2025-05-01T00:00:00Z') });
    promotedId = memory.id;
    expect(memory).toMatchObject({ kind: 'memory', subject: 'checkout-api', attribute: 'memory limit', value: '512Mi', confidence: expect.closeTo(0.7, 5), status: 'current', sourceName: 'sizing', versionNo: 1 });
    const lineage = await stores.knowledge.explorer.lineage(memory.id);
    expect(lineage.chain.map((step) => step.kind)).toEqual(['fact', 'chunk', 'source']);
    await expect(memories().promote(factId, { confidence: 1.5 })).rejects.toMatchObject({ code: 'INVALID_INPUT', field: 'confidence' });
    await expect(memories().promote('fct_missing', { confidence: 0.5 })).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('supersedes a memory: the new value holds from then on, the old one before, and the past belief is kept', async () => {
    await pause();
    beforeSupersede = new Date();
    await pause();
    const replacement = await memories().supersede(promotedId, { value: '256Mi', confidence: 0.9, validFrom: june });
    expect(replacement).toMatchObject({ value: '256Mi', status: 'current', validFrom: june.toISOString() });
    expect(await memories().get(promotedId)).toMatchObject({ status: 'superseded', expiredAt: expect.any(String) });

    const valueAt = async (validAt: Date, knownAt?: Date) =>
      (await memories().asOf({ validAt, ...(knownAt ? { knownAt } : {}) }, { subject: 'checkout-api', attribute: 'memory limit' })).map((memory) => memory.value);
    expect(await valueAt(new Date('2025-05-15T00:00:00Z'))).toEqual(['512Mi']);
    expect(await valueAt(new Date('2025-06-10T00:00:00Z'))).toEqual(['256Mi']);
    expect(await valueAt(new Date('2025-04-01T00:00:00Z'))).toEqual([]);
    // Transaction time: before the supersede we believed 512Mi with no end, so it held in June too.
    expect(await valueAt(new Date('2025-06-10T00:00:00Z'), beforeSupersede)).toEqual(['512Mi']);

    const edges = await stores.database.query<{ kind: string }>(sql`select kind from knowledge_edges where to_id = ${promotedId} and kind = 'supersedes'`);
    expect(edges).toHaveLength(2);
    await expect(memories().supersede(promotedId, { value: '1Gi', confidence: 0.5 })).rejects.toMatchObject({ code: 'CONFLICT' });
  });

  it('expires a memory (transaction time) so it is no longer read as current', async () => {
    const extra = await memories().promote(factId, { confidence: 0.4, text: 'a second note' });
    const expired = await memories().expire(extra.id, { reason: 'operator said so' });
    expect(expired).toMatchObject({ status: 'expired', statusReason: 'operator said so' });
    const current = await memories().asOf({}, { subject: 'checkout-api' });
    expect(current.map((memory) => memory.id)).not.toContain(extra.id);
    // Read as of a moment before the expiry, the note was still believed.
    const earlier = await memories().asOf({ knownAt: new Date(new Date(expired.expiredAt!).getTime() - 1), validAt: new Date() }, { subject: 'checkout-api' });
    expect(earlier.map((memory) => memory.id)).toContain(extra.id);
    await expect(memories().expire(extra.id, { at: new Date('2000-01-01T00:00:00Z') })).rejects.toMatchObject({ code: 'INVALID_INPUT', field: 'at' });
  });

  it('compacts duplicate memories into the most confident one, keeping every derived_from link', async () => {
    await stores.store.ingest({ name: 'sizing-notes', kind: 'docs' }, [text('Reminder: the checkout-api memory limit is 512Mi.')], 'notes-1');
    await stores.knowledge.syncSource('sizing-notes');
    const [{ id: otherFact }] = await stores.database.query<{ id: string }>(
      sql`select n.id from knowledge_nodes n join sources s on s.id = n.source_id where s.name = 'sizing-notes' and n.kind = 'fact'`,
    );
    const weak = await memories().promote(factId, { confidence: 0.3 });
    const strong = await memories().promote(otherFact, { confidence: 0.8 });
    const report = await memories().compact();
    expect(report).toEqual({ groups: 1, merged: 1 });
    expect(await memories().get(weak.id)).toMatchObject({ status: 'expired', statusReason: `compacted into ${strong.id}` });
    const origins = await stores.database.query<{ to_id: string }>(sql`select to_id from knowledge_edges where from_id = ${strong.id} and kind = 'derived_from' order by to_id`);
    expect(origins.map((edge) => edge.to_id).sort()).toEqual([factId, otherFact].sort());
    expect(await memories().compact()).toEqual({ groups: 0, merged: 0 });
  });

  it('turns a memory stale when the source its fact came from changes', async () => {
    const before = await memories().asOf({}, { subject: 'checkout-api' });
    expect(before.length).toBeGreaterThan(0);
    await stores.store.ingest({ name: 'sizing', kind: 'docs' }, [text('The checkout-api memory limit is 256Mi.')], 'sizing-2');
    await stores.knowledge.syncSource('sizing');
    const promoted = await stores.database.query<{ status: string; status_reason: string }>(
      sql`select status, status_reason from knowledge_nodes where kind = 'memory' and id in (select from_id from knowledge_edges where to_id = ${factId} and kind = 'derived_from')`,
    );
    // The promoted memory, its closed revision and the compaction survivor (which took over the
    // fact as an origin) turn stale; what was already expired stays expired.
    expect(promoted.map((memory) => memory.status).sort()).toEqual(['expired', 'expired', 'stale', 'stale', 'stale']);
    for (const memory of promoted.filter((row) => row.status === 'stale')) expect(memory.status_reason).toMatch(/sizing v1(, which)? was superseded by v2 \(ver_/);
    // Only the replacement survives: it was stated by an operator, not derived from the changed fact.
    expect((await memories().asOf({}, { subject: 'checkout-api' })).map((memory) => memory.value)).toEqual(['256Mi']);
  });
});
