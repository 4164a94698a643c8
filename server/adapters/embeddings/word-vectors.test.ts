import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { convertWinkEmbeddings } from './word-vector-converter';
import { loadWordVectorCache, openWordVectors } from './word-vectors';

const root = mkdtempSync(path.join(tmpdir(), 'cr-word-vectors-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** The package's layout in miniature: vectors carry [v…, l2norm, rank], keys in an order unlike the ranks, one escaped key. */
function winkJson(dimensions: number, entries: readonly (readonly [string, readonly number[]])[]): string {
  const words = entries.map(([word]) => word);
  const vectors = Object.fromEntries(
    [...entries].reverse().map(([word, values]) => [word, [...values, Math.hypot(...values), words.indexOf(word)]]),
  );
  return JSON.stringify({ precision: 8, l2NormIndex: dimensions, wordIndex: dimensions + 1, size: entries.length, dimensions, words, vectors, unkVector: new Array(dimensions).fill(0) });
}

const ENTRIES = [
  ['the', [0.5, -0.25, 0.125, 1]],
  ['"', [-2, 0, 0.5, 0.25]],
  ['café', [0.1, 0.2, 0.3, 0.4]],
  ['zero', [0, 0, 0, 0]],
] as const;

const valuesOf = (vectors: ReturnType<typeof loadWordVectorCache>, row: number) => {
  const target = new Float64Array(vectors.dimensions);
  vectors.addScaled(row, 1, target);
  return Array.from(target);
};

describe('word-vector cache', () => {
  it('converts the package JSON to Int8 rows in rank order and loads them back', async () => {
    const jsonPath = path.join(root, 'small.json');
    writeFileSync(jsonPath, winkJson(4, ENTRIES));
    const cachePath = path.join(root, 'cache', 'small.bin');
    const report = await convertWinkEmbeddings(jsonPath, cachePath);
    expect(report).toMatchObject({ words: 4, dimensions: 4, sourceBytes: statSync(jsonPath).size, cacheBytes: statSync(cachePath).size });
    expect(report.minCosine).toBeGreaterThan(0.999);
    const vectors = loadWordVectorCache(cachePath);
    expect([vectors.size, vectors.dimensions]).toEqual([4, 4]);
    expect(ENTRIES.map(([word]) => vectors.rowOf(word))).toEqual([0, 1, 2, 3]);
    expect(vectors.wordAt(2)).toBe('café');
    expect(vectors.rowOf('missing')).toBe(-1);
    ENTRIES.forEach(([, expected], row) => valuesOf(vectors, row).forEach((value, index) => expect(value).toBeCloseTo(expected[index], 1)));
    expect(Math.abs(valuesOf(vectors, 1)[0] - -2)).toBeLessThan(2 / 127);
  });

  it('rejects a JSON that is not in the package format', async () => {
    const jsonPath = path.join(root, 'bad.json');
    writeFileSync(jsonPath, JSON.stringify({ size: 2, dimensions: 2, words: ['a', 'b'], vectors: { a: [1, 2, 3, 0] } }));
    await expect(convertWinkEmbeddings(jsonPath, path.join(root, 'bad.bin'))).rejects.toMatchObject({ code: 'INVALID_CONFIG' });
  });

  it('builds lazily on first open, reuses the cache, and rebuilds when the source changes', async () => {
    const jsonPath = path.join(root, 'lazy.json');
    const cachePath = path.join(root, 'lazy', 'vectors.bin');
    writeFileSync(jsonPath, winkJson(4, ENTRIES));
    const first = await openWordVectors({ cachePath, jsonPath });
    expect(first.rowOf('café')).toBe(2);
    expect(await openWordVectors({ cachePath, jsonPath })).toBe(first);
    writeFileSync(jsonPath, winkJson(4, [...ENTRIES, ['extra', [1, 1, 1, 1]]]));
    const rebuilt = await openWordVectors({ cachePath, jsonPath });
    expect(rebuilt.rowOf('extra')).toBe(4);
  });
});
