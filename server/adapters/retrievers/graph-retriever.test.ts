import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { IngestChunk } from '../../runtime/contracts/store';
import { CorpusStats } from '../db/corpus-stats';
import { openStores, type Stores } from '../db/open-stores';
import { buildPendingDerivedIndexes } from '../graph/graph-builder';
import { GraphCache } from '../graph/graph-cache';
import { type GraphSetup, setupGraphRetrieval } from '../graph/graph-setup';
import { GraphRetriever } from './graph-retriever';

const root = mkdtempSync(path.join(tmpdir(), 'cr-graph-'));
let stores: Stores;
let cache: GraphCache;
let graph: GraphRetriever;
let seeded: GraphRetriever;
let setup: GraphSetup;

const passage = (title: string, text: string): IngestChunk => ({ uri: title, ordinal: 0, title, text, tokens: text.split(/\s+/).length });

/**
 * A 2-hop question: "Who founded the company that makes the Zephyr Nine?" The first hop is about
 * the phone; the bridge (the maker's own passage) shares no content word with the question but
 * "founded", which the distractors repeat far more often.
 */
const WIKI = [
  passage('Zephyr Nine', 'The Zephyr Nine is a smartphone made by Aldermoor Electronics and sold since 2019.'),
  passage('Founders of phone companies', 'Many phone companies were founded by engineers. The company that makes a phone is often founded by a founder who founded other companies.'),
  passage('Smartphone', 'A smartphone is a phone that a company makes; companies that make phones were founded in the 1990s.'),
  passage('Galway', 'Galway is a city in the west of Ireland.'),
  passage('Harbour Radio', 'Harbour Radio is a station in Galway founded in 1988.'),
];
const COMPANIES = [passage('Aldermoor Electronics', 'Aldermoor Electronics is an Irish maker of consumer devices, started by Brigid Castellane in Galway in 2004.')];
// Reachable only through the company passage, which names her: a third hop.
const PEOPLE = [passage('Brigid Castellane', 'Brigid Castellane is an engineer born in Cork in 1971.')];
const QUESTION = 'Who founded the company that makes the Zephyr Nine?';
const ALL = ['wiki', 'companies', 'people'];

beforeAll(async () => {
  stores = await openStores({ dataDir: path.join(root, 'pglite') });
  await stores.store.ingest({ name: 'wiki', kind: 'docs' }, WIKI, 'wiki-1');
  await stores.store.ingest({ name: 'companies', kind: 'docs' }, COMPANIES, 'companies-1');
  await stores.store.ingest({ name: 'people', kind: 'docs' }, PEOPLE, 'people-1');
  await buildPendingDerivedIndexes(stores.database);
  const corpus = new CorpusStats(stores.database);
  await corpus.refresh();
  cache = new GraphCache(stores.database, { recheckMs: 0 });
  graph = new GraphRetriever(stores.database, corpus, cache);
  seeded = new GraphRetriever(stores.database, corpus, cache, { passageSeeder: stores.retrievers[0] });
  // The wiring open-stores would use: default 1 s key recheck, invalidated by indexPending.
  setup = setupGraphRetrieval(stores.database, corpus);
});

afterAll(async () => {
  await stores?.close();
  rmSync(root, { recursive: true, force: true });
});

describe('graph retriever', () => {
  it('ranks the bridging passage of a 2-hop question in the top 2, where bm25 does not', async () => {
    const hits = await graph.search({ text: QUESTION, k: 5, sources: ALL });
    expect(hits.slice(0, 2).map((hit) => hit.title).sort()).toEqual(['Aldermoor Electronics', 'Zephyr Nine']);
    expect(hits[0]).toMatchObject({ method: 'graph', rank: 1, sourceKind: 'docs' });
    expect(hits[0].score).toBeGreaterThanOrEqual(hits[1].score);
    const lexical = await stores.retrievers[0].search({ text: QUESTION, k: 2, sources: ALL });
    expect(lexical.map((hit) => hit.title)).not.toContain('Aldermoor Electronics');
    const withSeeds = await seeded.search({ text: QUESTION, k: 2, sources: ALL });
    expect(withSeeds.map((hit) => hit.title)).toContain('Aldermoor Electronics');
  });

  it('neither returns nor walks through passages of sources the query may not read', async () => {
    const open = await graph.search({ text: QUESTION, k: 10, sources: ALL });
    expect(open.map((hit) => hit.title)).toContain('Brigid Castellane');
    const closed = await graph.search({ text: QUESTION, k: 10, sources: ['wiki', 'people'] });
    expect(closed.map((hit) => hit.title)).toContain('Zephyr Nine');
    expect(closed.map((hit) => hit.sourceName)).not.toContain('companies');
    expect(closed.map((hit) => hit.title)).not.toContain('Brigid Castellane');
  });

  it('answers from the new version after a re-ingest, and nothing for a question naming nothing in the graph', async () => {
    expect((await setup.graph.search({ text: QUESTION, k: 2, sources: ALL })).map((hit) => hit.title)).toContain('Aldermoor Electronics');
    await stores.store.ingest({ name: 'companies', kind: 'docs' }, [passage('Aldermoor Electronics', 'Aldermoor Electronics was sold to Quellmark Holdings in 2021.')], 'companies-2');
    const [source] = (await stores.store.listSources()).filter((info) => info.name === 'companies');
    expect((await setup.indexPending()).map((report) => `${report.index}:${report.versionId}`).sort()).toEqual([`graph:${source.versionId}`, `identifiers:${source.versionId}`]);
    expect((await setup.graph.search({ text: 'Who owns Quellmark Holdings?', k: 3, sources: ALL }))[0]).toMatchObject({ title: 'Aldermoor Electronics' });
    const hits = await graph.search({ text: 'Who owns Quellmark Holdings?', k: 3, sources: ALL });
    expect(hits[0]).toMatchObject({ title: 'Aldermoor Electronics', sourceVersionId: source.versionId });
    expect(hits[0].text).toContain('Quellmark');
    expect(await graph.search({ text: 'what is the weather like', k: 3, sources: ALL })).toEqual([]);
    for (const junk of ['\u0000 ))) "unterminated', 'Zephyr '.repeat(20_000), '“”‘’«»', '']) {
      expect(Array.isArray(await graph.search({ text: junk, identifiers: ['%', "'"], k: 3, sources: ALL }))).toBe(true);
    }
    expect(graph.capabilities()).toMatchObject({ method: 'graph', available: true });
  });
});
