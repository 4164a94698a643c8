import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contentHash, ingestPath, planIngest } from './ingest-path';
import { MemoryStore } from './testing/memory-store';
import { countWords } from './word-token-counter';

const demoDirectory = fileURLToPath(new URL('../../examples/demo-incident/', import.meta.url));
let workDir: string;
beforeAll(async () => {
  workDir = await mkdtemp(join(tmpdir(), 'ingest-path-'));
});
afterAll(async () => {
  await rm(workDir, { recursive: true, force: true });
});

describe('planIngest', () => {
  it('turns a mixed folder into one source per kind named <folder>-<kind>', async () => {
    const plan = await planIngest(demoDirectory, { countTokens: countWords });
    expect(plan.sources.map((source) => [source.name, source.kind, source.documents])).toEqual([
      ['demo-incident-docs', 'docs', 5],
      ['demo-incident-logs', 'logs', 2],
      ['demo-incident-events', 'events', 1],
      ['demo-incident-metrics', 'metrics', 1],
    ]);
    expect(plan.skipped.map((entry) => entry.reason)).toEqual(['JSON file is not a list of Kubernetes events']);
    const docs = plan.sources[0];
    expect(new Set(docs.chunks.map((chunk) => chunk.uri))).toEqual(new Set(['README.md', 'docs/checkout-api-overview.md', 'docs/deploy-runbook.md', 'docs/payments-retry-policy.md', 'docs/runbook-oomkilled-crashloopbackoff.md']));
    for (const source of plan.sources) expect(source.contentHash).toMatch(/^[0-9a-f]{64}$/);
  });

  it('names a single-kind path after its base name, or the given name', async () => {
    const logs = await planIngest(join(demoDirectory, 'logs'), { countTokens: countWords });
    expect(logs.sources.map((source) => source.name)).toEqual(['logs']);
    const file = await planIngest(join(demoDirectory, 'docs/deploy-runbook.md'), { countTokens: countWords });
    expect(file.sources.map((source) => source.name)).toEqual(['deploy-runbook']);
    expect(file.sources[0].chunks[0].uri).toBe('deploy-runbook.md');
    const named = await planIngest(join(demoDirectory, 'logs'), { countTokens: countWords, sourceName: 'prod-logs' });
    expect(named.sources[0].name).toBe('prod-logs');
  });

  it('surfaces a parser error, naming the file relative to the folder', async () => {
    await mkdir(join(workDir, 'broken'));
    await writeFile(join(workDir, 'broken', 'pod-events.json'), '[{"reason":');
    await expect(planIngest(join(workDir, 'broken'), { countTokens: countWords })).rejects.toMatchObject({ code: 'INVALID_INPUT', field: 'pod-events.json' });
  });
});

describe('contentHash', () => {
  it('ignores pair order and changes with any uri or content change', () => {
    const pairs = [{ uri: 'a.md', content: 'one' }, { uri: 'b.md', content: 'two' }];
    expect(contentHash(pairs)).toBe(contentHash([...pairs].reverse()));
    expect(contentHash(pairs)).not.toBe(contentHash([{ uri: 'a.md', content: 'one' }, { uri: 'b.md', content: 'two!' }]));
    expect(contentHash([{ uri: 'ab', content: 'c' }])).not.toBe(contentHash([{ uri: 'a', content: 'bc' }]));
  });
});

describe('ingestPath', () => {
  it('writes each planned source once and re-ingesting unchanged files is a no-op', async () => {
    const folder = join(workDir, 'notes');
    await mkdir(folder);
    await writeFile(join(folder, 'a.md'), '# A\n\nalpha\n');
    await writeFile(join(folder, 'b.log'), 'x\ny\n');
    const store = new MemoryStore();
    const progress: [number, number][] = [];
    const first = await ingestPath(store, folder, { countTokens: countWords, onProgress: (done, total) => progress.push([done, total]) });
    expect(first.map((result) => [result.source, result.changed, result.chunks])).toEqual([['notes-docs', true, 1], ['notes-logs', true, 1]]);
    expect(progress).toEqual([[0, 2], [1, 2], [2, 2]]);
    const again = await ingestPath(store, folder, { countTokens: countWords });
    expect(again.map((result) => result.changed)).toEqual([false, false]);
    await writeFile(join(folder, 'b.log'), 'x\ny\nz\n');
    const changed = await ingestPath(store, folder, { countTokens: countWords });
    expect(changed.map((result) => [result.source, result.changed])).toEqual([['notes-docs', false], ['notes-logs', true]]);
  });
});
