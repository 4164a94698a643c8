import { describe, expect, it } from 'vitest';
import { KNOWLEDGE_CONTRACT, type KnowledgePlugin } from '../contracts/knowledge';
import type { SourceInfo } from '../types';
import { cachedKnowledge, SourceReadCache } from './source-read-cache';

const source = (name: string, versionId: string): SourceInfo =>
  Object.freeze({ name, kind: 'docs', versionId, contentHash: `hash-${versionId}`, chunkCount: 1, tokenCount: 10, stale: false, sensitive: false, updatedAt: '2026-12-01T00:00:00.000Z' });

/** A knowledge plugin over a mutable source table that counts its reads, as the database would be read. */
function fakeKnowledge() {
  const table = new Map<string, SourceInfo>([['docs', source('docs', 'v1')]]);
  const reads = { sources: 0, fingerprint: 0 };
  const contradictionReads: string[][] = [];
  const chunkContradictionReads: string[][] = [];
  /** Facts that disagree, by source: what the knowledge sync after an ingest writes. */
  const disagreeing = new Set<string>();
  let gate: Promise<void> | undefined;
  let failNext = false;
  const plugin: KnowledgePlugin = {
    contract: KNOWLEDGE_CONTRACT,
    async sources() {
      reads.sources++;
      const snapshot = [...table.values()];
      await gate;
      if (failNext) {
        failNext = false;
        throw new Error('database unavailable');
      }
      return snapshot;
    },
    async fingerprint(names) {
      reads.fingerprint++;
      return [...names].sort().map((name) => `${name}:${table.get(name)?.versionId}`).join(',');
    },
    async contradictions(chunkIds) {
      chunkContradictionReads.push([...chunkIds]);
      return chunkIds.filter((chunkId) => disagreeing.has(chunkId)).map((chunkId) => ({ subject: chunkId, attribute: 'memory_limit', values: [] }));
    },
  };
  const withContradictions: KnowledgePlugin = {
    ...plugin,
    async contradictionsAmong(names) {
      contradictionReads.push([...names]);
      return names.filter((name) => disagreeing.has(name)).map((name) => ({ subject: name, attribute: 'memory_limit', values: [] }));
    },
  };
  return {
    plugin,
    withContradictions,
    contradictionReads,
    chunkContradictionReads,
    disagree: (name: string) => disagreeing.add(name),
    reads,
    /** A new version of `name`, as an ingest writes it. */
    write: (name: string, versionId: string) => table.set(name, source(name, versionId)),
    hold: () => {
      let release!: () => void;
      gate = new Promise((resolve) => (release = resolve));
      return () => {
        gate = undefined;
        release();
      };
    },
    failNextRead: () => (failNext = true),
  };
}

describe('SourceReadCache', () => {
  it('reads the source list and each source set\'s fingerprint once between writes', async () => {
    const knowledge = fakeKnowledge();
    const cache = new SourceReadCache(knowledge.plugin);
    expect(await cache.sources()).toEqual(await cache.sources());
    expect(await cache.fingerprint(['docs', 'logs'])).toBe(await cache.fingerprint(['logs', 'docs', 'docs']));
    await cache.fingerprint(['docs']);
    expect(knowledge.reads).toEqual({ sources: 1, fingerprint: 2 });
  });

  it('never serves a read from before a write once the write has invalidated it', async () => {
    const knowledge = fakeKnowledge();
    const cache = new SourceReadCache(knowledge.plugin);
    expect((await cache.sources()).map((entry) => entry.versionId)).toEqual(['v1']);
    const before = await cache.fingerprint(['docs']);
    knowledge.write('docs', 'v2');
    knowledge.write('logs', 'v1');
    cache.invalidate('source docs changed');
    expect((await cache.sources()).map((entry) => `${entry.name}:${entry.versionId}`)).toEqual(['docs:v2', 'logs:v1']);
    const after = await cache.fingerprint(['docs']);
    expect(after).not.toBe(before);
    expect(after).toBe('docs:v2');
    expect(cache.generation).toBe(1);
    expect(cache.lastInvalidation).toBe('source docs changed');
  });

  it('does not keep a read that was in flight when a write invalidated the cache', async () => {
    const knowledge = fakeKnowledge();
    const cache = new SourceReadCache(knowledge.plugin);
    const release = knowledge.hold();
    const inFlight = cache.sources(); // took its snapshot before the write
    knowledge.write('docs', 'v2');
    cache.invalidate('source docs changed');
    release();
    expect((await inFlight).map((entry) => entry.versionId)).toEqual(['v1']);
    // The next read is not the in-flight one: it reads again and sees the write.
    expect((await cache.sources()).map((entry) => entry.versionId)).toEqual(['v2']);
    expect(knowledge.reads.sources).toBe(2);
  });

  it('reads contradictions once per source set and again after a write', async () => {
    const knowledge = fakeKnowledge();
    const cache = new SourceReadCache(knowledge.withContradictions);
    expect(await cache.contradictionsAmong(['docs', 'logs'])).toEqual([]);
    expect(await cache.contradictionsAmong(['logs', 'docs'])).toEqual([]);
    knowledge.disagree('docs');
    cache.invalidate('source docs changed');
    expect((await cache.contradictionsAmong(['docs', 'logs'])).map((entry) => entry.subject)).toEqual(['docs']);
    expect(knowledge.contradictionReads).toHaveLength(2);
    expect(await new SourceReadCache(knowledge.plugin).contradictionsAmong(['docs'])).toEqual([]);
  });

  it('reads the contradictions of a run\'s chunks once per chunk set and again after a write', async () => {
    const knowledge = fakeKnowledge();
    const cache = new SourceReadCache(knowledge.plugin);
    expect(await cache.contradictions(['chunk-2', 'chunk-1'])).toEqual([]);
    expect(await cache.contradictions(['chunk-1', 'chunk-2', 'chunk-1'])).toEqual([]);
    expect(await cache.contradictions(['chunk-1'])).toEqual([]);
    expect(knowledge.chunkContradictionReads).toEqual([['chunk-2', 'chunk-1'], ['chunk-1']]);
    // The knowledge sync after an ingest writes a disagreement on chunk-1: seen once the write invalidated the cache.
    knowledge.disagree('chunk-1');
    expect(await cache.contradictions(['chunk-1'])).toEqual([]);
    cache.invalidate('source docs changed');
    expect((await cache.contradictions(['chunk-2', 'chunk-1'])).map((entry) => entry.subject)).toEqual(['chunk-1']);
    expect(knowledge.chunkContradictionReads).toHaveLength(3);
  });

  it('does not keep a failed read', async () => {
    const knowledge = fakeKnowledge();
    const cache = new SourceReadCache(knowledge.plugin);
    knowledge.failNextRead();
    await expect(cache.sources()).rejects.toThrow('database unavailable');
    expect((await cache.sources()).map((entry) => entry.name)).toEqual(['docs']);
    expect(knowledge.reads.sources).toBe(2);
  });
});

describe('cachedKnowledge', () => {
  it('answers sources and fingerprints from the cache and delegates everything else', async () => {
    const knowledge = fakeKnowledge();
    const cache = new SourceReadCache(knowledge.plugin);
    const wrapped = cachedKnowledge(knowledge.plugin, cache, true);
    await wrapped.sources();
    await wrapped.sources();
    await wrapped.fingerprint(['docs']);
    await wrapped.fingerprint(['docs']);
    expect(knowledge.reads).toEqual({ sources: 1, fingerprint: 1 });
    expect(await wrapped.contradictions(['chunk-1'])).toEqual([]);
    expect(await wrapped.contradictions(['chunk-1'])).toEqual([]);
    expect(knowledge.chunkContradictionReads).toEqual([['chunk-1']]);
    expect(wrapped.contradictionsAmong).toBeUndefined();
  });

  it('reads through when disabled (a database other processes also write)', async () => {
    const knowledge = fakeKnowledge();
    const wrapped = cachedKnowledge(knowledge.plugin, new SourceReadCache(knowledge.plugin), false);
    expect(wrapped).toBe(knowledge.plugin);
    await wrapped.sources();
    await wrapped.sources();
    expect(knowledge.reads.sources).toBe(2);
  });
});
