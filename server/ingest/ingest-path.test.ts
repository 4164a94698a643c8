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
    expect(first.sources.map((result) => [result.source, result.changed, result.chunks])).toEqual([['notes-docs', true, 1], ['notes-logs', true, 1]]);
    expect(progress).toEqual([[0, 2], [1, 2], [2, 2]]);
    const again = await ingestPath(store, folder, { countTokens: countWords });
    expect(again.sources.map((result) => result.changed)).toEqual([false, false]);
    await writeFile(join(folder, 'b.log'), 'x\ny\nz\n');
    const changed = await ingestPath(store, folder, { countTokens: countWords });
    expect(changed.sources.map((result) => [result.source, result.changed])).toEqual([['notes-docs', false], ['notes-logs', true]]);
    expect(changed.skipped).toEqual([]);
  });

  // Regression (issue 10): a binary named .md became 11 chunks of garbage and an executable vanished without a word.
  it('leaves binary files out whatever their extension and reports every skipped file with its reason, never its content', async () => {
    const folder = join(workDir, 'mixed-binary');
    await mkdir(folder);
    const secret = 'TOPSECRET-PAYLOAD';
    await writeFile(join(folder, 'runbook.md'), '# Runbook\n\nRestart the pod.\n');
    // An image renamed .md: PNG signature (with its NUL bytes) and a readable marker after it.
    await writeFile(join(folder, 'diagram.md'), Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d]), Buffer.from(secret.repeat(400))]));
    // Text for its first 64 KiB, binary after: only reading the whole file finds it.
    await writeFile(join(folder, 'late.log'), Buffer.concat([Buffer.from(`${'ok line\n'.repeat(9000)}`), Buffer.from([0xc3, 0x28, 0xff, 0xfe]), Buffer.from(secret)]));
    await writeFile(join(folder, 'deploy-tool'), `#!/bin/sh\necho ${secret}\n`, { mode: 0o755 });
    await writeFile(join(folder, 'photo.png'), secret);
    const store = new MemoryStore();
    const report = await ingestPath(store, folder, { countTokens: countWords });
    expect(report.sources.map((result) => [result.source, result.documents])).toEqual([['mixed-binary-docs', 1]]);
    const reasons = Object.fromEntries(report.skipped.map((entry) => [entry.path.slice(folder.length + 1), entry.reason]));
    expect(reasons).toEqual({
      'diagram.md': 'binary content (NUL byte at offset 8)',
      'late.log': 'binary content (not valid UTF-8 text)',
      'deploy-tool': 'executable file, not a document (unsupported file type "deploy-tool")',
      'photo.png': 'unsupported file type ".png"',
    });
    expect(JSON.stringify(report)).not.toContain(secret);
    expect([...store.sources.values()].flatMap((source) => source.chunks).some((chunk) => /[\u0000\ufffd]/.test(chunk.text))).toBe(false);
  });

  it('refuses a single binary file named .md with the reason, writing nothing', async () => {
    const file = join(workDir, 'renamed.md');
    await writeFile(file, Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0, 0, 0]));
    const store = new MemoryStore();
    await expect(ingestPath(store, file, { countTokens: countWords })).rejects.toThrow(/nothing to ingest .*renamed\.md;.*: 1 skipped \(1 binary content \(NUL byte at offset 7\)\)/);
    expect(await store.listSources()).toEqual([]);
  });
});
