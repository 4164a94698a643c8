import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { openStores, type Stores } from '../../adapters/db/open-stores';
import { createCallerFactory, createTRPCRouter } from '../init';
import type { RuntimePort } from '../runtime-port';
import { knowledgeRouter } from './knowledge-router';

// The router over the real explorer on a real embedded database (mounted on its own here, so the
// test does not depend on the root router's wiring).
const root = mkdtempSync(path.join(tmpdir(), 'cr-knowledge-router-'));
let stores: Stores;
const createCaller = createCallerFactory(createTRPCRouter({ knowledge: knowledgeRouter }));
const callerWith = (runtime: object) => createCaller({ runtime: async () => runtime as RuntimePort, principal: { user: 'vera', roles: ['viewer'] } });

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
  const caller = () => callerWith({ knowledge: () => stores.knowledge });

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
