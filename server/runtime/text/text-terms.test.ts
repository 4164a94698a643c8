import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { POSTGRES_ENGLISH_STOPWORDS, REQUEST_STOPWORDS, STOPWORDS } from './english-stopwords';
import { contentTerms, stem } from './text-terms';

/**
 * Our stemmer and stopwords against PostgreSQL's own english_stem dictionary (the one bm25 indexes
 * with), in the embedded PGlite the runtime ships with.
 */
let database: PGlite;

beforeAll(async () => {
  database = new PGlite();
  await database.waitReady;
});

afterAll(async () => {
  await database.close();
});

async function postgresStems(words: readonly string[]): Promise<Map<string, string[]>> {
  const result = await database.query<{ word: string; lexemes: string[] | null }>(
    `select word, ts_lexize('english_stem', word) as lexemes from unnest($1::text[]) as word`,
    [words],
  );
  return new Map(result.rows.map((row) => [row.word, row.lexemes ?? []]));
}

const BASE_WORDS = (
  'restart cause deploy limit lower fail crash connect timeout memory pool exhaust retry schedule evict queue ' +
  'replica database migrate index query cache certificate expire rotate throttle generous dye lie ski news sky ' +
  'agree happy relate condition conclude operate general communicate university arsenal organ past gently ' +
  'run hop add egg ebb err odd inn on fit bed hope tape trouble analyse analyze fly cry apply try study ' +
  'patient protein cell gene express increase decrease regulate associate infect treat mutate inhibit bind ' +
  'activate signal receptor tumour tumor clinic trial dose response reduce produce induce enable require ' +
  'city country elect govern direct film star play write sing build found born die marry award team score'
).split(' ');
const SUFFIXES = ['', 's', 'es', 'ed', 'ing', 'er', 'ers', 'ly', 'ness', 'ment', 'ation', 'ations', 'ive', 'ity', 'ful', 'less', 'able', 'ised', 'ized'];

describe('stem', () => {
  it('gives what PostgreSQL english_stem gives on inflected and derived words', async () => {
    const words = [...new Set(BASE_WORDS.flatMap((base) => SUFFIXES.map((suffix) => base + suffix)))];
    const expected = await postgresStems(words);
    const disagreements = words.filter((word) => {
      const lexemes = expected.get(word) ?? [];
      return lexemes.length > 0 && stem(word) !== lexemes[0];
    });
    expect(words.length).toBeGreaterThan(2000);
    expect(disagreements.map((word) => `${word}: ours ${stem(word)}, postgres ${expected.get(word)?.[0]}`)).toEqual([]);
  });

  it('keeps a three-letter doubled stem as PostgreSQL 18 does and leaves words with digits whole', () => {
    expect(['adding', 'added', 'adds'].map(stem)).toEqual(['add', 'add', 'add']);
    expect(['hopping', 'inned', 'onness'].map(stem)).toEqual(['hop', 'in', 'on']);
    expect(stem('eggs')).toBe('egg');
    expect(stem('ad')).toBe('ad');
    expect(stem('503s')).toBe('503s');
    expect(stem('restarting')).toBe('restart');
    expect(stem('caused')).toBe(stem('cause'));
  });
});

describe('stopwords', () => {
  it('are PostgreSQL english.stop word for word, every one dropped by english_stem', async () => {
    const file = await database.query<{ text: string }>(`select pg_read_file(current_setting('data_directory') || '/../share/postgresql/tsearch_data/english.stop') as text`);
    expect([...POSTGRES_ENGLISH_STOPWORDS].sort()).toEqual(file.rows[0].text.split('\n').filter((line) => line.length > 0).sort());
    const lexemes = await postgresStems(POSTGRES_ENGLISH_STOPWORDS);
    expect(POSTGRES_ENGLISH_STOPWORDS.filter((word) => (lexemes.get(word) ?? []).length > 0)).toEqual([]);
  });

  it('keep "down" and "up", add modal verbs and unlisted function words, and add request words only for reading a request', () => {
    expect(STOPWORDS.has('down') || STOPWORDS.has('up')).toBe(false);
    expect(['the', 'after', 'could', 'might', "don't", 'also', 'whose'].every((word) => STOPWORDS.has(word))).toBe(true);
    expect(STOPWORDS.has('please') || STOPWORDS.has('show')).toBe(false);
    expect(['please', 'show', 'the'].every((word) => REQUEST_STOPWORDS.has(word))).toBe(true);
    for (const word of STOPWORDS) expect(REQUEST_STOPWORDS.has(word)).toBe(true);
  });
});

describe('contentTerms', () => {
  it('drops the same stopwords and request words from a question, stems as bm25 does', () => {
    expect(contentTerms('Please tell me why the checkout pods went down after adding replicas')).toEqual(['checkout', 'pod', 'went', 'down', 'after', 'add', 'replica']);
  });
});
