/**
 * The retrievers composed over bm25 (rerank, rm3) and over bm25 + dense (hybrid), on one real
 * PGlite with pg_textsearch and pgvector, the SIF embedder on the real fixture word vectors.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RetrieverPlugin } from '../../runtime/contracts/retriever';
import type { IngestChunk } from '../../runtime/contracts/store';
import { CorpusStats } from '../db/corpus-stats';
import { openStores, type Stores } from '../db/open-stores';
import { SifEmbedder } from '../embeddings/sif-embedder';
import { FILLER, RUNBOOK } from '../embeddings/testing/fixture-texts';
import { loadFixtureVectors } from '../embeddings/testing/fixture-vectors';
import { DenseRetriever } from './dense-retriever';
import { HybridRetriever } from './hybrid-retriever';
import { LinearReranker, splitLetterCompounds } from './linear-reranker';
import { RERANK_FEATURES } from './rerank-features';
import { FITTED_PRIOR_RATIOS, scaledRecallPrior } from './fitted-prior-ratios';
import { BM25_ORDER_MODEL, DEFAULT_RERANK_MODEL } from './rerank-model';
import { RerankRetriever, rerankRecallPrior } from './rerank-retriever';
import { DEFAULT_RM3_OPTIONS, Rm3Retriever } from './rm3-retriever';
import { derivedRetrievers } from './derived-retrievers';

const root = mkdtempSync(path.join(tmpdir(), 'cr-rerank-'));
let stores: Stores;
let bm25: RetrieverPlugin;
let dense: DenseRetriever;
let corpus: CorpusStats;

const chunk = (uri: string, title: string, text: string): IngestChunk => ({ uri, ordinal: 0, title, text, tokens: text.split(/\s+/).length });

/** Two hops: the question names Zorbania; only the Zorbania passage names the city the answer passage is about. */
const BRIDGE = [
  chunk('zorbania.md', 'Zorbania', 'Zorbania is a small republic. The capital of Zorbania is Quellstadt, a port city.'),
  chunk('vendel.md', 'Vendel', 'The Vendel winds through Quellstadt before it reaches the sea at Quellstadt harbour; Quellstadt grew along it.'),
];
/** bm25 prefers the document repeating the claim's number; the one whose title and one sentence hold the claim is the answer. */
const CLAIMS = [
  chunk('survey.md', 'Annual survey tables', 'Sudden deaths happen: 10 of 10 infant deaths per 10 clinics in 10 regions happen in newborns; 10 tables, 10 years, syndrome codes 10.'),
  chunk('sids.md', 'Sudden infant death syndrome in newborns', 'Most sudden infant death syndrome deaths occur in newborns younger than six months, and the risk falls after the first year of life in every country studied so far.'),
];

beforeAll(async () => {
  stores = await openStores({ dataDir: path.join(root, 'pglite'), dense: { embedder: new SifEmbedder(async () => loadFixtureVectors()) } });
  await stores.store.ingest({ name: 'runbooks', kind: 'docs' }, RUNBOOK.map((doc) => chunk(doc.uri, doc.title, doc.text)), 'runbooks-1');
  await stores.store.ingest({ name: 'notes', kind: 'docs' }, FILLER.map((doc) => chunk(doc.uri, doc.title, doc.text)), 'notes-1');
  await stores.store.ingest({ name: 'atlas', kind: 'docs' }, [...BRIDGE, ...CLAIMS], 'atlas-1');
  [bm25] = stores.retrievers;
  dense = stores.dense as DenseRetriever;
  corpus = new CorpusStats(stores.database);
  await corpus.refresh();
});

afterAll(async () => {
  await stores?.close();
  rmSync(root, { recursive: true, force: true });
});

const ALL = ['runbooks', 'notes', 'atlas'];

describe('hybrid retriever (weighted RRF of bm25 and dense)', () => {
  it('is unavailable, saying why, until the dense half has vectors; then fuses both lists', async () => {
    const hybrid = new HybridRetriever(bm25, dense);
    expect(hybrid.capabilities()).toMatchObject({ method: 'hybrid', available: false, unavailableReason: 'dense unavailable: no current chunk has a sif-sg-100d embedding yet' });
    await stores.embedChunks();
    const capabilities = hybrid.capabilities();
    expect(capabilities).toMatchObject({ available: true, requires: ['pg_textsearch', 'vector'] });
    expect(capabilities.recallPrior.conceptual).toBe(Math.max(bm25.capabilities().recallPrior.conceptual!, dense.capabilities().recallPrior.conceptual!));

    const text = 'renew the expiring TLS certificates';
    const [lexical, semantic, fused] = await Promise.all([bm25.search({ text, k: 10, sources: ALL }), dense.search({ text, k: 10, sources: ALL }), hybrid.search({ text, k: 10, sources: ALL })]);
    // With the default weights dense reorders only below bm25's head and adds what bm25 missed.
    expect(fused[0].chunkId).toBe(lexical[0].chunkId);
    const denseOnly = semantic.filter((hit) => !lexical.some((other) => other.chunkId === hit.chunkId));
    expect(denseOnly.length).toBeGreaterThan(0);
    expect(fused.map((hit) => hit.chunkId)).toContain(denseOnly[0].chunkId);
    fused.forEach((hit, index) => expect(hit).toMatchObject({ rank: index + 1, method: 'hybrid' }));
    // Equal weights at a large k let dense's confident list lead instead.
    const even = await new HybridRetriever(bm25, dense, { rrfK: 60, semanticWeight: 5 }).search({ text, k: 3, sources: ALL });
    expect(even[0].chunkId).toBe(semantic[0].chunkId);
  });
});

describe('rerank retriever (linear model over bm25 top N)', () => {
  it('rescores only bm25\'s head and returns a permutation of it, tail in bm25 order', async () => {
    const rerank = new RerankRetriever(stores.database, bm25, { dense, corpusSize: () => corpus.currentChunks, topN: 3 });
    const text = 'the river village bridge';
    const [lexical, reranked] = await Promise.all([bm25.search({ text, k: 8, sources: ALL }), rerank.search({ text, k: 8, sources: ALL })]);
    expect(reranked).toHaveLength(lexical.length);
    expect(new Set(reranked.slice(0, 3).map((hit) => hit.chunkId))).toEqual(new Set(lexical.slice(0, 3).map((hit) => hit.chunkId)));
    expect(reranked.slice(3).map((hit) => hit.chunkId)).toEqual(lexical.slice(3).map((hit) => hit.chunkId));
    reranked.forEach((hit, index) => {
      expect(hit).toMatchObject({ rank: index + 1, method: 'rerank' });
      if (index > 0) expect(hit.score).toBeLessThan(reranked[index - 1].score);
    });
  });

  it('puts the abstract whose title and one sentence hold the claim above one that repeats its number', async () => {
    const rerank = new RerankRetriever(stores.database, bm25, { dense, corpusSize: () => corpus.currentChunks });
    const text = '10% of sudden infant death syndrome deaths happen in newborns';
    const lexical = await bm25.search({ text, k: 5, sources: ['atlas'] });
    const reranked = await rerank.search({ text, k: 5, sources: ['atlas'] });
    expect(lexical[0].title).toBe('Annual survey tables');
    expect(reranked[0].title).toBe('Sudden infant death syndrome in newborns');
  });

  it('computes the cosine feature only with vectors from the embedder the weights were trained on', async () => {
    const query = { text: 'the river flooded the village near the new bridge', k: 5, sources: ALL };
    const trained = await new RerankRetriever(stores.database, bm25, { dense }).scoreHead(query, 5);
    expect(trained.model.cosineEmbedderId).toBe('sif-sg-100d');
    expect(trained.features[0][RERANK_FEATURES.indexOf('bm25')]).toBe(1);
    expect(trained.features.some((features) => features[RERANK_FEATURES.indexOf('cosine')] > 0)).toBe(true);
    const other = { ...dense, embedder: { ...dense.embedder, id: 'another-embedder' }, capabilities: () => dense.capabilities() };
    const lexical = await new RerankRetriever(stores.database, bm25, { dense: other, model: { ...BM25_ORDER_MODEL, cosineEmbedderId: 'sif-sg-100d' } }).scoreHead(query, 5);
    expect(lexical.model.id).toBe('scifact-train-lexical-v1');
    expect(lexical.features.every((features) => features[RERANK_FEATURES.indexOf('cosine')] === 0)).toBe(true);
  });

  it('follows bm25\'s availability and answers nothing for nothing', async () => {
    const rerank = new RerankRetriever(stores.database, bm25, { dense });
    expect(rerank.capabilities()).toMatchObject({ method: 'rerank', available: true, requires: ['pg_textsearch'] });
    expect(rerank.capabilities().latencyMs).toBeGreaterThan(bm25.capabilities().latencyMs);
    // The shipped model's out-of-fold gain is positive, so its fitted ratios apply (fitted-prior-ratios.ts).
    expect(DEFAULT_RERANK_MODEL.oofGain).toBeGreaterThan(0);
    expect(rerank.capabilities().recallPrior.conceptual).toBeCloseTo(Math.min(1, bm25.capabilities().recallPrior.conceptual! * FITTED_PRIOR_RATIOS.rerank.conceptual!), 10);
    expect(await rerank.search({ text: 'the of and', k: 5, sources: ALL })).toEqual([]);
    expect(await rerank.search({ text: 'memory', k: 0, sources: ALL })).toEqual([]);
    expect(await rerank.search({ text: 'memory', k: 5, sources: [] })).toEqual([]);
  });
});

describe('linear reranker (the Reranker plugin inside the rerank retriever)', () => {
  it("orders bm25's head as the rerank retriever does, keeping every hit once with the tail in bm25 order", async () => {
    const linear = new LinearReranker(stores.database, { dense, corpusSize: () => corpus.currentChunks });
    const rerank = new RerankRetriever(stores.database, bm25, { topN: 2 }, linear);
    expect(rerank.reranker).toBe(linear);
    const reordered: boolean[] = [];
    for (const text of ['10% of sudden infant death syndrome deaths happen in newborns', 'the river flooded the village near the new bridge', 'deaths in the capital port city']) {
      const head = await bm25.search({ text: splitLetterCompounds(text), k: 12, sources: ALL });
      expect(head.length).toBeGreaterThanOrEqual(2);
      const [reranked, searched] = await Promise.all([linear.rerank({ text, hits: head, topN: 2 }), rerank.search({ text, k: 12, sources: ALL })]);
      expect(reranked.map((hit) => hit.chunkId)).toEqual(searched.map((hit) => hit.chunkId));
      expect(reranked.map((hit) => hit.score)).toEqual(searched.map((hit) => hit.score));
      expect(reranked.slice(2).map((hit) => hit.chunkId)).toEqual(head.slice(2).map((hit) => hit.chunkId));
      reranked.forEach((hit, index) => expect(hit).toMatchObject({ rank: index + 1, method: 'linear' }));
      searched.forEach((hit) => expect(hit.method).toBe('rerank'));
      reordered.push(reranked[0].chunkId !== head[0].chunkId);
    }
    // The claim's abstract overtakes the survey table (as through the retriever above): the model did reorder.
    expect(reordered[0]).toBe(true);
    expect(linear.capabilities()).toMatchObject({ method: 'linear', available: true, trainedOn: 'bm25', costUsdPerQuery: 0, sendsPassagesOffMachine: false });
  });

  it('leaves a head of fewer than two hits in first-stage order', async () => {
    const linear = new LinearReranker(stores.database, { dense });
    const [only] = await bm25.search({ text: 'Zorbania capital', k: 1, sources: ALL });
    const hits = [only, { ...only, chunkId: 'other', rank: 2 }];
    expect((await linear.rerank({ text: 'Zorbania capital', hits, topN: 1 })).map((hit) => [hit.chunkId, hit.rank, hit.method])).toEqual([[only.chunkId, 1, 'linear'], ['other', 2, 'linear']]);
    expect(await linear.rerank({ text: 'anything', hits: [], topN: 10 })).toEqual([]);
  });
});

describe('rm3 retriever (bm25 with pseudo-relevance feedback)', () => {
  it("finds the second hop through the first hop's terms, which bm25 alone cannot", async () => {
    const rm3 = new Rm3Retriever(stores.database, bm25);
    const text = 'Which river flows through the capital of Zorbania?';
    const lexical = await bm25.search({ text, k: 10, sources: ALL });
    expect(lexical[0].title).toBe('Zorbania');
    expect(lexical.map((hit) => hit.title)).not.toContain('Vendel');
    const expanded = await rm3.search({ text, k: 10, sources: ALL });
    expect(expanded[0].title).toBe('Zorbania');
    expect(expanded.map((hit) => hit.title)).toContain('Vendel');
    expanded.forEach((hit, index) => expect(hit).toMatchObject({ rank: index + 1, method: 'rm3' }));
  });

  it('searches only the requested current sources and reports bm25-derived capabilities', async () => {
    const rm3 = new Rm3Retriever(stores.database, bm25);
    const scoped = await rm3.search({ text: 'capital of Zorbania', k: 10, sources: ['notes'] });
    expect(new Set(scoped.map((hit) => hit.sourceName))).toEqual(new Set(scoped.length ? ['notes'] : []));
    const capabilities = rm3.capabilities();
    expect(capabilities).toMatchObject({ method: 'rm3', available: true, requires: ['pg_textsearch'] });
    expect(capabilities.recallPrior).toEqual(scaledRecallPrior(bm25.capabilities().recallPrior, 'rm3'));
  });

  it('takes the configured options (config retrieval.rm3, through derivedRetrievers), unset ones at the defaults', () => {
    const rm3 = derivedRetrievers(stores.database, [bm25], { rm3: { documents: 3, originalWeight: 0.7 } }).find((retriever) => retriever.method === 'rm3');
    expect(rm3).toBeInstanceOf(Rm3Retriever);
    expect((rm3 as Rm3Retriever).options).toEqual({ ...DEFAULT_RM3_OPTIONS, documents: 3, originalWeight: 0.7 });
  });
});

describe('rerank recall prior (issue 16: preferred only with a positive out-of-fold gain)', () => {
  const first = { conceptual: 0.6, multi_hop: 0.45, exact_id: 0.9 };
  const model = (oofGain?: number) => ({ ...BM25_ORDER_MODEL, ...(oofGain === undefined ? {} : { oofGain }) });

  it('scales the first stage by the fitted ratios while the gain is positive', () => {
    expect(rerankRecallPrior(first, model(0.01))).toEqual(scaledRecallPrior(first, 'rerank'));
  });

  it('never rises above the first stage for a model with no gain, a loss, or no out-of-fold figure', () => {
    for (const gain of [0, -0.02, undefined]) {
      const prior = rerankRecallPrior(first, model(gain));
      for (const [intent, value] of Object.entries(first)) expect(prior[intent]).toBeLessThanOrEqual(value);
    }
  });
});
