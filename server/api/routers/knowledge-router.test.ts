import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { openStores, type Stores } from '../../adapters/db/open-stores';
import { createCallerFactory, createTRPCRouter } from '../init';
import type { Principal } from '../../runtime/types';
import { fakeRuntimePort } from '../fake-runtime-port';
import type { RuntimePort } from '../runtime-port';
import { knowledgeRouter } from './knowledge-router';

// The router over the real explorer on a real embedded database (mounted on its own here, so the
// test does not depend on the root router's wiring).
const root = mkdtempSync(path.join(tmpdir(), 'cr-knowledge-router-'));
let stores: Stores;
const createCaller = createCallerFactory(createTRPCRouter({ knowledge: knowledgeRouter }));
const callerWith = (runtime: Partial<RuntimePort>, principal: Principal | undefined = { user: 'vera', roles: ['viewer'] }) =>
  createCaller({ runtime: async () => fakeRuntimePort(runtime), ...(principal ? { principal } : {}) });

const doc = (text: string) => [{ uri: 'sizing.md', ordinal: 0, title: 'checkout-api sizing', text, tokens: 8 }];

beforeAll(async () => {
  stores = await openStores({ dataDir: path.join(root, 'pglite') });
  for (const [name, text, hash] of [
    ['sizing', 'The checkout-api memory limit is 512Mi.', 's1'],
    ['sizing', 'The checkout-api memory limit is 384Mi.', 's2'],
    ['limits', 'The checkout-api memory limit is 256Mi.', 'l1'],
  ] as const) {
    await stores.store.ingest({ name, kind: 'docs' }, doc(text), hash);
    await stores.knowledge.syncSource(name);
  }
});

afterAll(async () => {
  await stores?.close();
  rmSync(root, { recursive: true, force: true });
});

describe('knowledge router', () => {
  const caller = () => callerWith({ knowledge: async () => stores.knowledge });

  it('lists sources with their current version, version count and contradictions', async () => {
    const sources = await caller().knowledge.sources();
    expect(sources.map((source) => [source.name, source.currentVersionNo, source.versions, source.facts, source.contradictions, source.stale])).toEqual([
      ['limits', 1, 1, 1, 1, false],
      ['sizing', 2, 2, 1, 1, false],
    ]);
  });

  it('returns every version of a source, newest first, with the old one superseded', async () => {
    const versions = await caller().knowledge.versions({ sourceName: 'sizing' });
    expect(versions.map((version) => [version.versionNo, version.status, version.supersededAt === null])).toEqual([
      [2, 'current', true],
      [1, 'superseded', false],
    ]);
  });

  it('walks a fact to its chunk and source version, and reports contradictions per source', async () => {
    const facts = await caller().knowledge.facts({ sourceName: 'sizing' });
    const current = facts.find((fact) => fact.status === 'current')!;
    expect(current.value).toBe('384Mi');
    expect(facts.find((fact) => fact.value === '512Mi')).toMatchObject({ status: 'stale', statusReason: expect.stringContaining('superseded by v2') });
    const lineage = await caller().knowledge.lineage({ nodeId: current.id });
    expect(lineage.chain.map((step) => `${step.kind}:${step.via}`)).toEqual(['chunk:derived_from', 'source:contains']);
    const groups = await caller().knowledge.contradictions({ sourceName: 'limits' });
    expect(groups.map((group) => group.facts.map((fact) => `${fact.value}@${fact.sourceName}`))).toEqual([['256Mi@limits', '384Mi@sizing']]);
    expect(await caller().knowledge.contradictions()).toHaveLength(1);
  });

  it('maps unknown sources, missing nodes and bad input to client errors', async () => {
    await expect(caller().knowledge.versions({ sourceName: 'nope' })).rejects.toMatchObject({ code: 'BAD_REQUEST', message: 'unknown source "nope"' });
    await expect(caller().knowledge.lineage({ nodeId: 'fct_missing' })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(caller().knowledge.versions({ sourceName: '  ' })).rejects.toMatchObject({ code: 'BAD_REQUEST' });
  });

  it('fails as an internal error when the runtime exposes no explorer', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    await expect(callerWith({}).knowledge.sources()).rejects.toMatchObject({ code: 'INTERNAL_SERVER_ERROR' });
    log.mockRestore();
  });
});

describe('knowledge router: memory lifecycle', () => {
  const runtime = () => ({ knowledge: async () => stores.knowledge });
  const viewer = () => callerWith(runtime());
  const operator = () => callerWith(runtime(), { user: 'otto', roles: ['operator'] });
  const pause = (milliseconds: number) => new Promise((resolve) => setTimeout(resolve, milliseconds));

  it('refuses callers without a session, and viewers on every mutation, before touching the store', async () => {
    const untouchable = (principal?: Principal) =>
      createCaller({ runtime: () => Promise.reject(new Error('the runtime was reached before the role check')), ...(principal ? { principal } : {}) }).knowledge;
    const anonymous = untouchable();
    const reader = untouchable({ user: 'vera', roles: ['viewer'] });
    await expect(anonymous.memories({})).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
    const mutations = [
      (caller: typeof anonymous) => caller.promoteFact({ factId: 'fct_x', confidence: 0.5 }),
      (caller: typeof anonymous) => caller.expireMemory({ memoryId: 'mem_x' }),
      (caller: typeof anonymous) => caller.supersedeMemory({ memoryId: 'mem_x', value: '1Gi', confidence: 0.5 }),
      (caller: typeof anonymous) => caller.compactMemories(),
    ];
    for (const call of mutations) {
      await expect(call(anonymous)).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
      await expect(call(reader)).rejects.toMatchObject({ code: 'FORBIDDEN', message: 'requires the operator role' });
    }
  });

  it('rejects bad input as BAD_REQUEST naming the field', async () => {
    const bad = async (call: Promise<unknown>, field: string) => {
      const error = await call.then(
        () => undefined,
        (caught: unknown) => caught,
      );
      expect(error).toMatchObject({ code: 'BAD_REQUEST', cause: { code: 'INVALID_INPUT', field } });
      expect((error as Error).message.startsWith(`${field}: `), (error as Error).message).toBe(true);
      return (error as Error).message;
    };
    expect(await bad(viewer().knowledge.memories({ validAt: 'yesterday' }), 'validAt')).toContain('ISO-8601');
    await bad(viewer().knowledge.memories({ knownAt: '2025-06-02T16:41:00' }), 'knownAt');
    await bad(viewer().knowledge.memories({ kinds: ['chunk' as 'fact'] }), 'kinds.0');
    await bad(operator().knowledge.promoteFact({ factId: 'fct_x', confidence: 2 }), 'confidence');
    await bad(operator().knowledge.expireMemory({ memoryId: 'mem_x', at: 'soon' }), 'at');
    await bad(operator().knowledge.supersedeMemory({ memoryId: 'mem_x', value: '1Gi', confidence: 0.5, validFrom: '2025-99-01T00:00:00Z' }), 'validFrom');
    const unknownKey = await bad(operator().knowledge.promoteFact({ factId: 'fct_x', confidence: 0.5, owner: 'me' } as never), 'input');
    expect(unknownKey).toContain('owner');
    await expect(operator().knowledge.promoteFact({ factId: 'fct_missing', confidence: 0.5 })).rejects.toMatchObject({ code: 'NOT_FOUND', message: 'no fact "fct_missing"' });
    await expect(operator().knowledge.expireMemory({ memoryId: 'mem_missing' })).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('promotes a fact, reads it as of now, expires it, reads before and after the expiry, supersedes and compacts', async () => {
    const facts = await viewer().knowledge.facts({ sourceName: 'sizing' });
    const current = facts.find((fact) => fact.status === 'current')!;
    const stale = facts.find((fact) => fact.status === 'stale')!;
    await expect(operator().knowledge.promoteFact({ factId: stale.id, confidence: 0.5 })).rejects.toMatchObject({ code: 'CONFLICT' });

    const memory = await operator().knowledge.promoteFact({ factId: current.id, confidence: 0.6, text: 'sized for the spring sale' });
    expect(memory).toMatchObject({ kind: 'memory', subject: 'checkout-api', attribute: 'memory limit', value: '384Mi', text: 'sized for the spring sale', status: 'current', sourceName: 'sizing' });
    expect(memory.confidence).toBeCloseTo(0.6, 5);
    expect((await viewer().knowledge.memories({})).map((row) => row.id)).toEqual([memory.id]);
    expect((await viewer().knowledge.memories({ subject: 'payments-api' })).map((row) => row.id)).toEqual([]);
    const withFacts = await viewer().knowledge.memories({ subject: 'checkout-api', kinds: ['memory', 'fact'] });
    expect(withFacts.map((row) => row.kind).sort()).toEqual(['fact', 'fact', 'memory']);

    await pause(5);
    const believed = new Date();
    await pause(5);
    const expired = await operator().knowledge.expireMemory({ memoryId: memory.id, reason: 'the sale is over' });
    expect(expired).toMatchObject({ status: 'expired', statusReason: 'the sale is over', expiredAt: expect.any(String) });
    expect(await viewer().knowledge.memories({})).toEqual([]);
    const before = await viewer().knowledge.memories({ knownAt: believed.toISOString() });
    expect(before.map((row) => row.id)).toEqual([memory.id]);
    const after = await viewer().knowledge.memories({ knownAt: new Date(new Date(expired.expiredAt!).getTime() + 1).toISOString() });
    expect(after).toEqual([]);
    await expect(operator().knowledge.expireMemory({ memoryId: memory.id, at: '2000-01-01T00:00:00Z' })).rejects.toMatchObject({ code: 'BAD_REQUEST', cause: { field: 'at' } });

    const kept = await operator().knowledge.promoteFact({ factId: current.id, confidence: 0.4 });
    const replacement = await operator().knowledge.supersedeMemory({ memoryId: kept.id, value: '448Mi', confidence: 0.9, validFrom: '2099-01-01T00:00:00Z' });
    expect(replacement).toMatchObject({ value: '448Mi', status: 'current', validFrom: '2099-01-01T00:00:00.000Z' });
    await expect(operator().knowledge.supersedeMemory({ memoryId: kept.id, value: '1Gi', confidence: 0.5 })).rejects.toMatchObject({ code: 'CONFLICT' });
    expect((await viewer().knowledge.memories({})).map((row) => row.value)).toEqual(['384Mi']);
    expect((await viewer().knowledge.memories({ validAt: '2099-06-01T00:00:00Z' })).map((row) => row.value)).toEqual(['448Mi']);

    // The closed copy of the superseded memory still holds until 2099; compaction merges only current duplicates.
    const weak = await operator().knowledge.promoteFact({ factId: current.id, confidence: 0.3 });
    const strong = await operator().knowledge.promoteFact({ factId: current.id, confidence: 0.8 });
    expect(await operator().knowledge.compactMemories()).toEqual({ groups: 1, merged: 1 });
    const compacted = await viewer().knowledge.memories({});
    expect(compacted.map((row) => [row.value, row.status, row.confidence?.toFixed(1)]).sort()).toEqual([
      ['384Mi', 'current', '0.8'],
      ['384Mi', 'superseded', '0.4'],
    ]);
    expect(compacted.map((row) => row.id)).toContain(strong.id);
    expect(compacted.map((row) => row.id)).not.toContain(weak.id);
    expect(await operator().knowledge.compactMemories()).toEqual({ groups: 0, merged: 0 });
  });

  it('fails as an internal error when the runtime exposes no memory store', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    await expect(callerWith({ knowledge: async () => ({ explorer: stores.knowledge.explorer }) }).knowledge.memories({})).rejects.toMatchObject({ code: 'INTERNAL_SERVER_ERROR' });
    log.mockRestore();
  });
});
