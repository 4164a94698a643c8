/**
 * The whole runtime on a plain PostgreSQL server without the optional extensions (vector,
 * pg_textsearch): capability discovery must cut the bm25 plans, say why in EXPLAIN, and fall
 * back to full-text retrieval. Runs only when TEST_DATABASE_URL is set; it uses a database of its
 * own, `context_runtime_it` on the same server (the database named by TEST_DATABASE_URL is wiped
 * by server/adapters/db/postgres-server.test.ts, which may run at the same time), and wipes THAT.
 * Local setup (Debian 12, root; the role comes from the db test's header):
 *
 *   pg_ctlcluster 15 main start
 *   su postgres -c "createdb -O context_runtime context_runtime_it"
 *   TEST_DATABASE_URL=postgres://context_runtime:context_runtime@127.0.0.1:5432/context_runtime_test \
 *     npx vitest run server/runtime-integration/postgres-server.test.ts
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../db/client';
import type { ExplainResult } from '../runtime/explain/explain-types';
import { DEMO_QUESTION, DEMO_SOURCES } from '../ingest/demo-corpus';
import { openRuntimeFixture, type RuntimeFixture } from '../testing/runtime-fixture';

const MISSING_TEXTSEARCH = 'extension pg_textsearch is not installed on this server';

function integrationUrl(testUrl: string | undefined): string | undefined {
  if (!testUrl) return undefined;
  const url = new URL(testUrl);
  url.pathname = '/context_runtime_it';
  return url.toString();
}

const url = integrationUrl(process.env.TEST_DATABASE_URL);
let fixture: RuntimeFixture;
let explain: ExplainResult;

describe.skipIf(!url)('runtime on a PostgreSQL server without optional extensions', () => {
  beforeAll(async () => {
    const wipe = await openDatabase({ url });
    await wipe.exec('DROP SCHEMA IF EXISTS drizzle CASCADE; DROP SCHEMA IF EXISTS public CASCADE; CREATE SCHEMA public;');
    await wipe.close();
    process.env.DATABASE_URL = url;
    // With a server URL, bootstrap rebuilds the demo git repository under ./.data of the working
    // directory; run from the fixture's temp root so the repository's own .data is left alone.
    const root = mkdtempSync(join(tmpdir(), 'context-runtime-pg-it-'));
    const previous = process.cwd();
    process.chdir(root);
    fixture = await openRuntimeFixture({ root, config: { database: { url } } }).finally(() => process.chdir(previous));
    explain = await fixture.runtime.explain({ goal: DEMO_QUESTION });
  });

  afterAll(async () => {
    delete process.env.DATABASE_URL;
    await fixture?.close();
  });

  it('loads the demo corpus into the server database', async () => {
    expect(fixture.database.driver).toBe('postgres');
    const sources = await fixture.runtime.sources();
    expect(sources.map((source) => source.name).sort()).toEqual(DEMO_SOURCES.map((source) => source.name).sort());
  });

  it('reports pg_textsearch and vector as missing, with the reason', () => {
    const store = explain.capabilities.store;
    expect(store.backend).toBe('postgres-server');
    expect(store.extensions).toMatchObject({ pg_textsearch: false, vector: false });
    expect(Object.keys(store.missing).sort()).toEqual(['pg_textsearch', 'vector']);
    expect(store.missing.pg_textsearch).toBe(MISSING_TEXTSEARCH);
    const bm25 = explain.capabilities.retrievers.find((retriever) => retriever.method === 'bm25');
    expect(bm25?.available).toBe(false);
  });

  it('cuts the bm25 plans as a capability rejection that quotes the missing extension', () => {
    const cuts = explain.rejectedCandidates.filter((rejected) => rejected.stage === 'capability');
    expect(cuts.length).toBeGreaterThan(0);
    expect(cuts.some((cut) => cut.reason.includes(MISSING_TEXTSEARCH))).toBe(true);
  });

  it('chooses full-text retrieval (the lexical fallback), and no candidate shown uses bm25', () => {
    expect(explain.chosen.choice.retrieval).toContain('fulltext');
    for (const candidate of explain.candidates) expect(candidate.choice.retrieval).not.toContain('bm25');
    expect(explain.graph.nodes.filter((node) => node.kind === 'retrieve').length).toBeGreaterThan(0);
  });

  it('runs to completion with cited evidence', async () => {
    const result = await fixture.runtime.run({ goal: DEMO_QUESTION });
    expect(result.status).toBe('completed');
    expect(result.answer?.trim().length ?? 0).toBeGreaterThan(0);
    expect(result.citations.length).toBeGreaterThan(0);
    // Every node ran, but the verification gate's retry attempt, skipped when the first answer passes.
    const analyzed = result.explain.analyze!.nodes;
    expect(analyzed.filter((node) => node.status !== 'skipped').every((node) => node.status === 'done')).toBe(true);
    expect(analyzed.filter((node) => node.status === 'skipped').every((node) => node.nodeId.includes('retry'))).toBe(true);
    const { spans } = await fixture.runtime.getRun(result.runId);
    expect(spans.some((span) => span.name === 'run')).toBe(true);
  });
});
