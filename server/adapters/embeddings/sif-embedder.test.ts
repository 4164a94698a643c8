import { describe, expect, it } from 'vitest';
import { MIN_TEXTS_FOR_COMPONENT } from './sif-model';
import { SifEmbedder } from './sif-embedder';
import { vocabularyTokens } from './sif-tokenizer';
import { FILLER, PAIRS, PARAPHRASE_QUERIES, RUNBOOK } from './testing/fixture-texts';
import { loadFixtureVectors } from './testing/fixture-vectors';

const vectors = loadFixtureVectors();
const corpus = [...RUNBOOK, ...FILLER].map((doc) => `${doc.title}\n${doc.text}`);
const batches = (texts: readonly string[], size = 5) =>
  async function* () {
    for (let start = 0; start < texts.length; start += size) yield texts.slice(start, start + size);
  };
const cosine = (left: Float32Array, right: Float32Array) => left.reduce((sum, value, index) => sum + value * right[index], 0);

describe('vocabularyTokens', () => {
  it('lower-cases, splits compounds the vocabulary lacks, camel humps and plurals', () => {
    const words = (text: string) => vocabularyTokens(text, (word) => (['the', 'cat', 'on', 'rug', 'crash', 'loop', 'back', 'off', 'retry'].includes(word) ? 1 : -1)).length;
    expect(words('The CAT on the rug')).toBe(5);
    expect(words('CrashLoopBackOff')).toBe(4);
    expect(words('cat-rug retries')).toBe(3);
    expect(words('zzz ??? 123')).toBe(0);
  });
});

describe('SifEmbedder on real GloVe vectors (fixture subset)', () => {
  it('places similar sentences closer than unrelated ones', async () => {
    const embedder = new SifEmbedder(async () => vectors);
    embedder.useState(await embedder.fit(batches(corpus)));
    const [cat, kitten, market, shares] = await embedder.embed([PAIRS.cat, PAIRS.kitten, PAIRS.market, PAIRS.shares]);
    expect(cosine(cat, kitten)).toBeGreaterThan(cosine(cat, market) + 0.1);
    expect(cosine(cat, kitten)).toBeGreaterThan(cosine(cat, shares) + 0.1);
    expect(cosine(market, shares)).toBeGreaterThan(cosine(market, kitten) + 0.1);
  });

  it('matches paraphrases that share almost no words with their target', async () => {
    const embedder = new SifEmbedder(async () => vectors);
    embedder.useState(await embedder.fit(batches(corpus)));
    const documents = await embedder.embed(corpus);
    for (const { query, expected } of PARAPHRASE_QUERIES) {
      const [vector] = await embedder.embed([query]);
      const ranked = documents.map((document, index) => ({ uri: [...RUNBOOK, ...FILLER][index].uri, score: cosine(vector, document) })).sort((a, b) => b.score - a.score);
      expect(ranked.slice(0, 2).map((entry) => entry.uri), query).toContain(expected);
    }
  });

  it('is deterministic: same fit, same vectors, unit length, dimension 100', async () => {
    const first = new SifEmbedder(async () => vectors);
    const second = new SifEmbedder(async () => vectors);
    const [stateA, stateB] = [await first.fit(batches(corpus, 3)), await second.fit(batches(corpus, 7))];
    expect(stateA).toEqual(stateB);
    first.useState(stateA);
    second.useState(stateB);
    const [a] = await first.embed([PAIRS.cat]);
    const [b] = await second.embed([PAIRS.cat]);
    expect(Array.from(a)).toEqual(Array.from(b));
    expect(a).toHaveLength(100);
    expect(first.dimensions).toBe(100);
    expect(Math.hypot(...a)).toBeCloseTo(1, 5);
  });

  it('persists counts by word, removes a unit common component only with enough texts', async () => {
    const embedder = new SifEmbedder(async () => vectors);
    const state = await embedder.fit(batches(corpus));
    expect(corpus.length).toBeGreaterThanOrEqual(MIN_TEXTS_FOR_COMPONENT);
    expect(state.textCount).toBe(corpus.length);
    expect(state.counts.the).toBeGreaterThan(5);
    expect(Object.values(state.counts).reduce((sum, count) => sum + count, 0)).toBe(state.totalTokens);
    expect(Math.hypot(...state.component)).toBeCloseTo(1, 9);
    embedder.useState(state);
    const [embedded] = await embedder.embed([corpus[0]]);
    expect(Math.abs(state.component.reduce((sum, value, index) => sum + value * embedded[index], 0))).toBeLessThan(1e-6);
    const small = await embedder.fit(batches(corpus.slice(0, 3)));
    expect(small.component.every((value) => value === 0)).toBe(true);
  });

  it('weights frequent words down: "the" alone weighs far less than "kitten" alone', async () => {
    const embedder = new SifEmbedder(async () => vectors);
    embedder.useState(await embedder.fit(batches(corpus)));
    const [withThe] = await embedder.embed(['the the the kitten']);
    const [kitten] = await embedder.embed(['kitten']);
    expect(cosine(withThe, kitten)).toBeGreaterThan(0.95);
  });

  it('returns a zero vector for text with no known word, and [] for no texts', async () => {
    const embedder = new SifEmbedder(async () => vectors);
    const [empty] = await embedder.embed(['zzqx ???']);
    expect(Array.from(empty).every((value) => value === 0)).toBe(true);
    expect(await embedder.embed([])).toEqual([]);
  });
});

describe('SifEmbedder.warm', () => {
  it('loads the word vectors once, so the first embed after start-up reads nothing', async () => {
    let loads = 0;
    const embedder = new SifEmbedder(async () => {
      loads += 1;
      return vectors;
    });
    expect(loads).toBe(0);
    await embedder.warm();
    expect(loads).toBe(1);
    await embedder.embed([PAIRS.cat]);
    await embedder.warm();
    expect(loads).toBe(1);
  });
});
