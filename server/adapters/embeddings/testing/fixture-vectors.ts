import { readFileSync } from 'node:fs';
import { createWordVectors, type WordVectors } from '../word-vectors';

interface Fixture {
  readonly dimensions: number;
  readonly words: readonly string[];
  readonly scales: readonly number[];
  readonly rows: string;
}

/** The real vectors of the fixture texts' words (see fixture-texts.ts); ranks compress to 0…n−1 but keep their order. */
export function loadFixtureVectors(): WordVectors {
  const fixture = JSON.parse(readFileSync(new URL('./fixture-vectors.json', import.meta.url), 'utf8')) as Fixture;
  const bytes = Buffer.from(fixture.rows, 'base64');
  const rows = new Int8Array(bytes.buffer, bytes.byteOffset, bytes.length);
  return createWordVectors(fixture.words, Float32Array.from(fixture.scales), rows, fixture.dimensions);
}
