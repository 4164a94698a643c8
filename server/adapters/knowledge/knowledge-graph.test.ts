import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { IngestChunk } from '../../runtime/contracts/store';
import { openStores, type Stores } from '../db/open-stores';

// Versions, staleness, supersession and contradictions on the real embedded Postgres (PGlite),
// through the real store: the graph is synced the way the ingest hook does it.
const root = mkdtempSync(path.join(tmpdir(), 'cr-knowledge-graph-'));
let stores: Stores;

const chunk = (uri: string, ordinal: number, text: string, extra: Partial<IngestChunk> = {}): IngestChunk => ({
  uri,
  ordinal,
  title: extra.title ?? uri,
  text,
  tokens: text.split(/\s+/).length,
  ...extra,
});

const MANIFEST = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: checkout-api
spec:
  replicas: 3
  template:
    spec:
      containers:
        - name: checkout-api
          resources:
            limits:
              memory: 256Mi
`;

async function ingest(name: string, chunks: readonly IngestChunk[], hash: string, kind: 'docs' | 'git' = 'docs') {
  const result = await stores.store.ingest({ name, kind }, chunks, hash);
  const report = await stores.knowledge.syncSource(name);
  return { result, report };
}

const nodeRows = (where: ReturnType<typeof sql>) =>
  stores.database.query<{ id: string; kind: string; status: string; status_reason: string | null; value: string | null; valid_to: Date | null; expired_at: Date | null }>(
    sql`select id, kind, status, status_reason, value, valid_to, expired_at from knowledge_nodes where ${where} order by id`,
  );

beforeAll(async () => {
  // The sync is driven by hand here, so each step's report can be read.
  stores = await openStores({ dataDir: path.join(root, 'pglite'), syncKnowledgeOnIngest: false });
});

afterAll(async () => {
  await stores?.close();
  rmSync(root, { recursive: true, force: true });
});

describe('KnowledgeGraph: versions and staleness', () => {
  let firstVersion = '';
  let firstChunk = '';
  let summaryId = '';

  it('mirrors a version, its chunks and their facts as nodes', async () => {
    const { result, report } = await ingest('runbooks', [chunk('checkout.md', 0, 'The checkout-api memory limit is 512Mi.', { title: 'checkout-api sizing' }), chunk('faq.md', 0, 'Nothing here.')], 'hash-1');
    firstVersion = result.versionId;
    expect(report).toMatchObject({ mirroredVersions: 1, mirroredChunks: 2, facts: 1, staleNodes: 0 });
    const [fact] = await nodeRows(sql`kind = 'fact' and version_id = ${firstVersion}`);
    expect(fact).toMatchObject({ kind: 'fact', status: 'current', value: '512Mi' });
    const [row] = await stores.database.query<{ chunk_id: string }>(sql`select chunk_id from knowledge_nodes where id = ${fact.id}`);
    firstChunk = row.chunk_id;
    summaryId = await stores.knowledge.graph.recordSummary({ text: 'checkout-api runs with 512Mi', derivedFrom: [firstChunk] });
    const edges = await stores.database.query<{ to_id: string }>(sql`select to_id from knowledge_edges where kind = 'derived_from' and from_id = ${summaryId}`);
    expect(edges).toEqual([{ to_id: firstChunk }]);
    expect((await stores.knowledge.syncSource('runbooks')).mirroredVersions).toBe(0);
  });

  it('re-ingesting a changed source never loses the old version and marks what was derived from it stale', async () => {
    const { result, report } = await ingest('runbooks', [chunk('checkout.md', 0, 'The checkout-api memory limit is 256Mi.', { title: 'checkout-api sizing' })], 'hash-2');
    expect(report).toMatchObject({ mirroredVersions: 1, facts: 1 });
    // The old version row, its chunks and its node are all still there.
    const versions = await stores.knowledge.explorer.versions('runbooks');
    expect(versions.map((version) => [version.versionNo, version.status])).toEqual([
      [2, 'current'],
      [1, 'superseded'],
    ]);
    expect(versions[1]).toMatchObject({ id: firstVersion, chunkCount: 2 });
    expect(versions[1].supersededAt).not.toBeNull();
    const [{ old_chunks }] = await stores.database.query<{ old_chunks: number }>(sql`select count(*)::int as old_chunks from chunks where version_id = ${firstVersion}`);
    expect(old_chunks).toBe(2);
    const [edge] = await stores.database.query(sql`select 1 as present from knowledge_edges where kind = 'supersedes' and from_id = ${result.versionId} and to_id = ${firstVersion}`);
    expect(edge).toBeDefined();
    // Fact and summary derived from v1 turn stale with a reason naming the new version.
    const stale = await nodeRows(sql`id = ${summaryId} or (kind = 'fact' and version_id = ${firstVersion})`);
    expect(stale).toHaveLength(2);
    for (const node of stale) {
      expect(node.status).toBe('stale');
      expect(node.expired_at).not.toBeNull();
      expect(node.status_reason).toContain(`v2 (${result.versionId})`);
    }
    expect(report.staleNodes).toBe(2);
  });

  it('traces a stale summary back to the superseded version through its lineage', async () => {
    const lineage = await stores.knowledge.explorer.lineage(summaryId);
    expect(lineage.node).toMatchObject({ kind: 'summary', status: 'stale' });
    expect(lineage.chain.map((step) => [step.depth, step.kind, step.via, step.status])).toEqual([
      [1, 'chunk', 'derived_from', 'superseded'],
      [2, 'source', 'contains', 'superseded'],
    ]);
    expect(lineage.chain[1]).toMatchObject({ id: firstVersion, sourceName: 'runbooks', versionNo: 1 });
    await expect(stores.knowledge.explorer.lineage('nope')).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('reports a source derived from a superseded upstream as stale, naming the new version, until it is rebuilt', async () => {
    await ingest('runbook-digest', [chunk('digest.md', 0, 'Digest of the runbooks.', { metadata: { derivedFrom: 'runbooks' } })], 'digest-1');
    expect((await stores.knowledge.sources()).find((source) => source.name === 'runbook-digest')?.stale).toBe(false);
    const { result } = await ingest('runbooks', [chunk('checkout.md', 0, 'The checkout-api memory limit is 384Mi.', { title: 'checkout-api sizing' })], 'hash-3');
    const digest = (await stores.knowledge.sources()).find((source) => source.name === 'runbook-digest')!;
    expect(digest.stale).toBe(true);
    expect(digest.staleReason).toEqual(expect.stringContaining(`derived from runbooks v2, which was superseded by v3 (${result.versionId})`));
    // Through the store's own flag too (markStale), so the plan cache is invalidated for it.
    expect((await stores.store.listSources()).find((source) => source.name === 'runbook-digest')?.stale).toBe(true);
    // Rebuilding the digest from the new upstream clears it.
    await ingest('runbook-digest', [chunk('digest.md', 0, 'Digest of the runbooks, v3.', { metadata: { derivedFrom: [{ source: 'runbooks', uri: 'checkout.md' }] } })], 'digest-2');
    expect((await stores.knowledge.sources()).find((source) => source.name === 'runbook-digest')?.stale).toBe(false);
  });

  it('still marks derived content stale when the upstream versions were ingested before the graph saw them', async () => {
    await stores.store.ingest({ name: 'upstream', kind: 'docs' }, [chunk('a.md', 0, 'first')], 'up-1');
    await ingest('downstream', [chunk('b.md', 0, 'built from upstream', { metadata: { derivedFrom: ['upstream'] } })], 'down-1');
    const newer = await stores.store.ingest({ name: 'upstream', kind: 'docs' }, [chunk('a.md', 0, 'second')], 'up-2');
    const report = await stores.knowledge.syncSource('upstream');
    expect(report).toMatchObject({ mirroredVersions: 2, staleSources: [{ name: 'downstream', reason: expect.stringContaining(`superseded by v2 (${newer.versionId})`) }] });
  });

  it('does nothing for a same-hash re-ingest', async () => {
    const { result, report } = await ingest('runbooks', [chunk('checkout.md', 0, 'The checkout-api memory limit is 384Mi.', { title: 'checkout-api sizing' })], 'hash-3');
    expect(result.changed).toBe(false);
    expect(report).toMatchObject({ mirroredVersions: 0, facts: 0, staleNodes: 0 });
  });
});

describe('KnowledgeGraph: contradictions', () => {
  let docsChunk = '';

  it('detects two current values for one subject and attribute from different sources', async () => {
    await ingest('manifests', [chunk('k8s/checkout-api/deployment.yaml', 0, MANIFEST)], 'manifest-1');
    const [row] = await stores.database.query<{ chunk_id: string }>(sql`
      select n.chunk_id from knowledge_nodes n join sources s on s.id = n.source_id
      where s.name = 'runbooks' and n.kind = 'fact' and n.status = 'current'`);
    docsChunk = row.chunk_id;
    const contradictions = await stores.knowledge.contradictions([docsChunk, 'chk_unrelated']);
    expect(contradictions).toEqual([
      {
        subject: 'checkout-api',
        attribute: 'memory limit',
        values: [
          { value: '256Mi', sourceName: 'manifests', chunkId: expect.stringMatching(/^chk_/) },
          { value: '384Mi', sourceName: 'runbooks', chunkId: docsChunk },
        ],
      },
    ]);
    expect(await stores.knowledge.contradictions(['chk_unrelated'])).toEqual([]);
    expect(await stores.knowledge.contradictionsAmong(['manifests'])).toEqual([]);
    expect(await stores.knowledge.contradictionsAmong(['manifests', 'runbooks'])).toHaveLength(1);
    const groups = await stores.knowledge.explorer.contradictions('manifests');
    expect(groups.map((group) => group.facts.map((fact) => fact.value))).toEqual([['256Mi', '384Mi']]);
  });

  it('retires the contradiction once the disagreeing source is corrected', async () => {
    await ingest('runbooks', [chunk('checkout.md', 0, 'The checkout-api memory limit is 256Mi.', { title: 'checkout-api sizing' })], 'hash-4');
    expect(await stores.knowledge.contradictions([docsChunk])).toEqual([]);
    const edges = await stores.database.query<{ expired: boolean }>(sql`select expired_at is not null as expired from knowledge_edges where kind = 'contradicts'`);
    expect(edges.length).toBeGreaterThan(0);
    expect(edges.every((edge) => edge.expired)).toBe(true);
    const summary = (await stores.knowledge.explorer.sources()).find((source) => source.name === 'runbooks')!;
    expect(summary).toMatchObject({ versions: 4, currentVersionNo: 4, contradictions: 0, facts: 1, sensitiveChunks: 0, stale: false });
  });
});

describe('KnowledgeGraph: a version larger than one statement', () => {
  it('mirrors every chunk and fact across batches, once, and a repeated sync adds nothing', async () => {
    // 1,200 chunks: more than the largest chunk-node batch (500), so several keyset batches run.
    const services = Array.from({ length: 1200 }, (_, index) => chunk(`svc-${index}.md`, 0, `The svc-${index} memory limit is ${128 + (index % 4) * 128}Mi.`, { title: `svc-${index} sizing` }));
    const { report } = await ingest('fleet', services, 'fleet-1');
    expect(report).toMatchObject({ mirroredVersions: 1, mirroredChunks: 1200 });
    const [counts] = await stores.database.query<{ chunk_nodes: number; contains: number; facts: number; fact_edges: number }>(sql`
      select (select count(*)::int from knowledge_nodes n join sources s on s.id = n.source_id where s.name = 'fleet' and n.kind = 'chunk') as chunk_nodes,
             (select count(*)::int from knowledge_edges e join sources s on s.current_version_id = e.from_id where s.name = 'fleet' and e.kind = 'contains') as contains,
             (select count(*)::int from knowledge_nodes n join sources s on s.id = n.source_id where s.name = 'fleet' and n.kind = 'fact') as facts,
             (select count(*)::int from knowledge_edges e join knowledge_nodes n on n.id = e.from_id join sources s on s.id = n.source_id
               where s.name = 'fleet' and n.kind = 'fact' and e.kind = 'derived_from') as fact_edges`);
    expect(counts).toEqual({ chunk_nodes: 1200, contains: 1200, facts: report.facts, fact_edges: report.facts });
    expect(report.facts).toBeGreaterThanOrEqual(1200);
    expect(await stores.knowledge.syncSource('fleet')).toMatchObject({ mirroredVersions: 0, mirroredChunks: 0, facts: 0 });
  });
});
