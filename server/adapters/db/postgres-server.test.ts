/**
 * The same stores against a plain PostgreSQL 15 server that has neither vector nor pg_textsearch.
 * Runs only when TEST_DATABASE_URL is set; the database it names is WIPED (schemas public and
 * drizzle are dropped), so point it at a throwaway database. Commands used locally (Debian 12, root):
 *
 *   pg_ctlcluster 15 main start
 *   su postgres -c "psql -v ON_ERROR_STOP=1" <<'SQL'
 *   CREATE ROLE context_runtime LOGIN PASSWORD 'context_runtime';
 *   CREATE DATABASE context_runtime_test OWNER context_runtime;
 *   SQL
 *   TEST_DATABASE_URL=postgres://context_runtime:context_runtime@127.0.0.1:5432/context_runtime_test \
 *     npx vitest run server/adapters/db/postgres-server.test.ts
 *
 * (If PostgreSQL is absent: `apt-get update && apt-get install -y postgresql`, which installs 15 on Debian 12.)
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../../db/client';
import { openStores, type Stores } from './open-stores';

const url = process.env.TEST_DATABASE_URL;
let stores: Stores;
let concurrentApplied: number[] = [];

describe.skipIf(!url)('stores on a PostgreSQL server without optional extensions', () => {
  beforeAll(async () => {
    const wipe = await openDatabase({ url });
    await wipe.exec('DROP SCHEMA IF EXISTS drizzle CASCADE; DROP SCHEMA IF EXISTS public CASCADE; CREATE SCHEMA public;');
    await wipe.close();
    // Two instances starting together: the advisory lock lets exactly one of them migrate.
    const [first, second] = await Promise.all([openStores({ url, planCacheTtlSeconds: 3600 }), openStores({ url })]);
    concurrentApplied = [first.migrations.applied.length, second.migrations.applied.length];
    await second.close();
    stores = first;
  });

  afterAll(async () => {
    await stores?.close();
  });

  it('applies every migration once on a clean database, even with two instances starting together', async () => {
    expect(stores.database.driver).toBe('postgres');
    const journal = JSON.parse(readFileSync(path.join(process.cwd(), 'drizzle', 'meta', '_journal.json'), 'utf8')) as { entries: unknown[] };
    expect([...concurrentApplied].sort((first, second) => first - second)).toEqual([0, journal.entries.length]);
    const again = await openStores({ url });
    expect(again.migrations.applied).toEqual([]);
    await again.close();
  });

  it('reports both extensions missing, with the reasons EXPLAIN quotes', () => {
    expect(stores.capabilities).toEqual({
      backend: 'postgres-server',
      extensions: { vector: false, pg_textsearch: false },
      missing: {
        vector: 'extension vector is not installed on this server',
        pg_textsearch: 'extension pg_textsearch is not installed on this server',
      },
    });
  });

  it('has the full-text GIN index but no bm25 index', async () => {
    const rows = await stores.database.query<{ indexname: string }>(sql`select indexname from pg_indexes where tablename = 'chunks' order by indexname`);
    const names = rows.map((row) => row.indexname);
    expect(names).toContain('chunks_search_vector_idx');
    expect(names).not.toContain('chunks_bm25_idx');
  });

  it('marks bm25 unavailable with the reason, and fulltext ranks the relevant chunk first', async () => {
    const [bm25, fulltext] = stores.retrievers;
    expect(bm25.capabilities()).toMatchObject({ method: 'bm25', available: false, unavailableReason: 'extension pg_textsearch is not installed on this server' });
    expect(fulltext.capabilities()).toMatchObject({ method: 'fulltext', available: true });
    const doc = (uri: string, title: string, text: string) => ({ uri, ordinal: 0, title, text, tokens: 10 });
    await stores.store.ingest(
      { name: 'runbooks', kind: 'docs' },
      [
        doc('oom.md', 'OOMKilled', 'A pod is OOMKilled when it exceeds its memory limit; raise the limit.'),
        doc('retry.md', 'Payments retry policy', 'Retries use exponential backoff with jitter.'),
      ],
      'h1',
    );
    expect(await bm25.search({ text: 'memory limit', k: 5, sources: ['runbooks'] })).toEqual([]);
    const hits = await fulltext.search({ text: 'payment retries with jitter', k: 5, sources: ['runbooks'] });
    expect(hits[0]).toMatchObject({ title: 'Payments retry policy', sourceName: 'runbooks', method: 'fulltext', rank: 1 });
    expect(await fulltext.search({ text: '?!;--', k: 5, sources: ['runbooks'] })).toEqual([]);
  });

  it('keeps versions, caches plans by fingerprint and invalidates by source', async () => {
    const first = await stores.knowledge.fingerprint(['runbooks']);
    const key = { intent: 'why did the checkout fail', intentShape: 's', sourceFingerprint: first, policyFingerprint: 'p', permissionFingerprint: 'r', constraintEnvelope: 'c', plannerVersion: 'v', capabilityFingerprint: 'k' };
    await stores.planCache.put(key, 'plan-1', { a: 1 });
    // Without pgvector the intent is matched in process: a paraphrase still hits.
    expect(await stores.planCache.lookup({ ...key, intent: 'what caused the checkout failure' })).toMatchObject({ status: 'hit', entry: { planHash: 'plan-1' } });
    await stores.store.ingest({ name: 'runbooks', kind: 'docs' }, [{ uri: 'oom.md', ordinal: 0, title: 't', text: 'changed', tokens: 1 }], 'h2');
    expect(await stores.knowledge.fingerprint(['runbooks'])).not.toBe(first);
    expect(await stores.planCache.lookup(key)).toMatchObject({ status: 'miss', nearMiss: { differs: ['invalidated'] } });
    const [versions] = await stores.database.query<{ count: number }>(sql`select count(*)::int as count from source_versions`);
    expect(versions.count).toBe(2);
  });

  it('persists runs and refuses to rewrite the approval audit', async () => {
    await stores.runStore.createRun({ id: 'run-pg', goal: 'g', planHash: 'h', plan: { x: 1 }, user: 'u' });
    await stores.runStore.recordDecision('run-pg', { nodeId: 'gate', decision: 'approved', by: 'lead', comment: '', at: new Date().toISOString() });
    expect((await stores.runStore.loadRun('run-pg'))?.decisions.get('gate')?.decision).toBe('approved');
    await expect(stores.database.query(sql`update approval_audit set decision = 'rejected'`)).rejects.toThrow();
    await expect(stores.database.query(sql`delete from approval_audit`)).rejects.toThrow();
  });
});
