import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadDemoCorpus } from './demo-corpus';
import { MemoryStore } from './testing/memory-store';
import { countWords } from './word-token-counter';

let workDir: string;
beforeAll(async () => {
  workDir = await mkdtemp(join(tmpdir(), 'demo-corpus-'));
});
afterAll(async () => {
  await rm(workDir, { recursive: true, force: true });
});

describe('loadDemoCorpus', () => {
  it('ingests five demo sources holding the evidence for the checkout-api failure, idempotently', async () => {
    const store = new MemoryStore();
    const first = await loadDemoCorpus(store, { countTokens: countWords, workDir });
    expect(first.map((result) => [result.source, result.changed])).toEqual([
      ['demo-docs', true],
      ['demo-logs', true],
      ['demo-events', true],
      ['demo-metrics', true],
      ['demo-git', true],
    ]);
    const sources = await store.listSources();
    expect(sources.map((source) => source.kind)).toEqual(['docs', 'logs', 'events', 'metrics', 'git']);

    const chunks = (name: string) => store.sources.get(name)!.chunks;
    expect(chunks('demo-events').some((chunk) => chunk.text.startsWith('Warning OOMKilled pod/checkout-api-7d9f8b6c5-x2k4p (shop):'))).toBe(true);
    expect(chunks('demo-logs').some((chunk) => chunk.text.includes('container checkout-api terminated (reason: OOMKilled, exit code 137)'))).toBe(true);
    const limitCommit = chunks('demo-git').find((chunk) => chunk.locator === 'commit 48d4188');
    expect(limitCommit?.text).toContain('+              memory: 256Mi');
    expect(chunks('demo-docs').some((chunk) => chunk.uri === 'runbook-oomkilled-crashloopbackoff.md')).toBe(true);

    const versions = sources.map((source) => source.versionId);
    const again = await loadDemoCorpus(store, { countTokens: countWords, workDir });
    expect(again.map((result) => result.changed)).toEqual([false, false, false, false, false]);
    expect((await store.listSources()).map((source) => source.versionId)).toEqual(versions);
  });
});
