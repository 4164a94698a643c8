import { describe, expect, it } from 'vitest';
import { candidateFeatures, idfOf, type ParsedToken, queryTerms, RERANK_FEATURES, scanTsvector } from './rerank-features';
import { BM25_ORDER_MODEL, DEFAULT_RERANK_MODEL, LEXICAL_RERANK_MODEL, scoreOf } from './rerank-model';
import { splitLetterCompounds } from './rerank-retriever';

const feature = (features: Float64Array, name: (typeof RERANK_FEATURES)[number]) => features[RERANK_FEATURES.indexOf(name)];

// ts_debug('english', '10% of HIV patients carry NT5C2 HIV') as PGlite returns it (blanks dropped).
const TOKENS: ParsedToken[] = [
  { alias: 'uint', token: '10', lexemes: ['10'] },
  { alias: 'asciiword', token: 'of', lexemes: [] },
  { alias: 'asciiword', token: 'HIV', lexemes: ['hiv'] },
  { alias: 'asciiword', token: 'patients', lexemes: ['patient'] },
  { alias: 'asciiword', token: 'carry', lexemes: ['carri'] },
  { alias: 'numword', token: 'NT5C2', lexemes: ['nt5c2'] },
  { alias: 'asciiword', token: 'HIV', lexemes: ['hiv'] },
  { alias: 'blank', token: ' ', lexemes: null },
];

describe('rerank features', () => {
  it('reads query terms with their counts and classes from ts_debug rows', () => {
    const terms = queryTerms(TOKENS);
    expect(terms.map((term) => term.lexeme)).toEqual(['10', 'hiv', 'patient', 'carri', 'nt5c2']);
    const byLexeme = new Map(terms.map((term) => [term.lexeme, term]));
    expect(byLexeme.get('10')).toMatchObject({ count: 1, numeric: true, leading: true });
    expect(byLexeme.get('hiv')).toMatchObject({ count: 2, acronym: true, numeric: false, leading: true });
    expect(byLexeme.get('nt5c2')).toMatchObject({ alphanumeric: true, acronym: true, leading: false });
    expect(byLexeme.get('carri')).toMatchObject({ acronym: false, alphanumeric: false, leading: false });
  });

  it('scans tsvector text for the wanted lexemes, counting every position', () => {
    const text = "'-11':9 'caspas':3,12A 'hiv':1,7B 'nopos' 'o''neil':3 'patient':2,4,40D";
    const scanned = scanTsvector(text, new Set(['hiv', "o'neil", 'nopos', 'absent', '-11']));
    expect([...scanned.positions]).toEqual([['-11', [9]], ['hiv', [1, 7]], ['nopos', []], ["o'neil", [3]]]);
    // 1 + 2 + 2 + 1 (no positions) + 1 + 3
    expect(scanned.length).toBe(10);
    expect(scanTsvector('', new Set(['a']))).toEqual({ positions: new Map(), length: 0 });
    expect(scanTsvector("'cut':1,2", new Set(['cut'])).positions.get('cut')).toEqual([1, 2]);
  });

  it("splits bm25's score by term class and measures title and window coverage", () => {
    const terms = queryTerms(TOKENS);
    const corpus = { documents: 1000, meanLength: 20, documentFrequency: (lexeme: string) => ({ hiv: 50, patient: 300, nt5c2: 2, '10': 200, carri: 40 })[lexeme] ?? 0 };
    // 'hiv' and 'nt5c2' sit 2 positions apart, 'patient' 40 positions later.
    const positions = new Map([['hiv', [1]], ['nt5c2', [3]], ['patient', [43]]]);
    // 20 positions in all, as many as the corpus mean: the length factor is exactly k1.
    const features = candidateFeatures(terms, { positions, length: 20, titleLexemes: new Set(['nt5c2']), score: 12, cosine: 0.4 }, 24, corpus);
    expect(feature(features, 'bm25')).toBe(0.5);
    expect(feature(features, 'numeric')).toBe(0);
    const lengthFactor = 1.2 * (0.25 + (0.75 * 20) / 20);
    const contribution = (count: number, lexeme: string) => (count * idfOf(1000, corpus.documentFrequency(lexeme)) * 2.2) / (1 + lengthFactor) / 24;
    expect(feature(features, 'alphanumeric')).toBeCloseTo(contribution(1, 'nt5c2'), 12);
    expect(feature(features, 'repeatedTerm')).toBeCloseTo(contribution(2, 'hiv'), 12);
    expect(feature(features, 'acronym')).toBeCloseTo(contribution(2, 'hiv') + contribution(1, 'nt5c2'), 12);
    expect(feature(features, 'rareTerm')).toBeCloseTo(contribution(1, 'nt5c2'), 12);
    const idf = (lexeme: string) => idfOf(1000, corpus.documentFrequency(lexeme));
    const total = ['10', 'hiv', 'patient', 'carri', 'nt5c2'].reduce((sum, lexeme) => sum + idf(lexeme), 0);
    expect(feature(features, 'title')).toBeCloseTo(idf('nt5c2') / total, 12);
    // The best 25-position window holds hiv and nt5c2, not patient.
    expect(feature(features, 'window')).toBeCloseTo((idf('hiv') + idf('nt5c2')) / total, 12);
    expect(feature(features, 'cosine')).toBe(0.4);
  });

  it('an empty candidate has only its bm25 share', () => {
    const features = candidateFeatures(queryTerms(TOKENS), { positions: new Map(), length: 0, titleLexemes: new Set(), score: 3 }, 3, { documents: 10, meanLength: 5, documentFrequency: () => 1 });
    expect([...features]).toEqual([1, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
  });

  it('scores with one weight per feature; the bm25-order model is bm25 itself', () => {
    for (const model of [BM25_ORDER_MODEL, DEFAULT_RERANK_MODEL, LEXICAL_RERANK_MODEL]) expect(model.weights).toHaveLength(RERANK_FEATURES.length);
    const features = Float64Array.from([0.8, 0.1, 0, 0, 0, 0, 0, 0.5, 0.5, 0.3]);
    expect(scoreOf(BM25_ORDER_MODEL, features)).toBe(0.8);
    expect(LEXICAL_RERANK_MODEL.weights[RERANK_FEATURES.indexOf('cosine')]).toBe(0);
    expect(DEFAULT_RERANK_MODEL.cosineEmbedderId).toBe('sif-sg-100d');
  });

  it('splits letter-letter compounds only', () => {
    expect(splitLetterCompounds('HIV-positive people and NF-κB, caspase-11, IL-6, 5-year')).toBe('HIV positive people and NF κB, caspase-11, IL-6, 5-year');
  });
});
