/**
 * Features of one (query, candidate) pair for the linear reranker (rerank-model.ts). Pure
 * functions over what Postgres already analysed: the query's ts_debug rows (token type, surface
 * token, lexemes under the english configuration) and each candidate's stored search_vector, so
 * every feature sees the same stemming as the bm25 index it reranks.
 *
 * Term features split bm25's sum by what kind of query term earned it (numbers, identifiers,
 * acronyms, rare terms, repeated terms, the claim's first half): a linear model over them is a
 * learned re-weighting of query terms (the idea of DeepCT, Dai & Callan 2020, with a handful of
 * hand-made term classes in place of BERT). Proximity is the best window's share of the query
 * (Tao & Zhai 2007 found minimum-span features the useful kind); title is a second field.
 */

export const RERANK_FEATURES = ['bm25', 'numeric', 'alphanumeric', 'acronym', 'rareTerm', 'repeatedTerm', 'leadingTerm', 'title', 'window', 'cosine'] as const;
export type RerankFeature = (typeof RERANK_FEATURES)[number];

/** pg_textsearch's defaults (k1 = 1.2, b = 0.75): the per-term split must add up to its score. */
const K1 = 1.2;
const B = 0.75;
/** Terms at or above this idf (df ≤ ~0.7% of the corpus) count as rare. */
const RARE_IDF = 5;
/** Window width in token positions: about one sentence of an abstract. */
const WINDOW_POSITIONS = 25;

/** One row of `ts_debug('english', text)`. */
export interface ParsedToken {
  readonly alias: string;
  readonly token: string;
  readonly lexemes: readonly string[] | null;
}

export interface QueryTerm {
  readonly lexeme: string;
  /** How often the query holds it: pg_textsearch multiplies the term's score by it. */
  readonly count: number;
  readonly numeric: boolean;
  readonly alphanumeric: boolean;
  readonly acronym: boolean;
  /** First seen in the first half of the query's terms (claims put their subject first). */
  readonly leading: boolean;
}

const NUMERIC_ALIASES = new Set(['uint', 'int', 'float', 'sfloat', 'scientific', 'version']);
const ALPHANUMERIC_ALIASES = new Set(['numword', 'numhword', 'hword_numpart']);

export function queryTerms(tokens: readonly ParsedToken[]): readonly QueryTerm[] {
  const meaningful = tokens.filter((token) => token.lexemes && token.lexemes.length > 0);
  const terms = new Map<string, { count: number; numeric: boolean; alphanumeric: boolean; acronym: boolean; leading: boolean }>();
  meaningful.forEach((token, index) => {
    for (const lexeme of token.lexemes ?? []) {
      const term = terms.get(lexeme) ?? { count: 0, numeric: false, alphanumeric: false, acronym: false, leading: index < meaningful.length / 2 };
      term.count += 1;
      term.numeric ||= NUMERIC_ALIASES.has(token.alias);
      term.alphanumeric ||= ALPHANUMERIC_ALIASES.has(token.alias);
      term.acronym ||= token.token.length >= 2 && token.token === token.token.toUpperCase() && /\p{Lu}/u.test(token.token);
      terms.set(lexeme, term);
    }
  });
  return Object.freeze([...terms].map(([lexeme, term]) => Object.freeze({ lexeme, ...term })));
}

export interface ScannedVector {
  /** Positions of the wanted lexemes only (an entry without positions maps to []). */
  readonly positions: ReadonlyMap<string, readonly number[]>;
  /** Token positions in the whole vector: the document length bm25 normalises by. */
  readonly length: number;
}

/**
 * Reads tsvector text output ('lexeme':1,5B 'o''neil':3 'bare') keeping only the wanted
 * lexemes' positions and counting all of them: a character scan, because a regex over every
 * lexeme of 30 abstracts cost 2.8 ms a query against 0.4 ms for this (measured on SciFact).
 */
export function scanTsvector(text: string, wanted: ReadonlySet<string>): ScannedVector {
  const positions = new Map<string, number[]>();
  let length = 0;
  let index = 0;
  while (index < text.length) {
    if (text.charCodeAt(index) !== QUOTE) {
      index++;
      continue;
    }
    let end = index + 1;
    let lexeme = '';
    let start = end;
    for (;;) {
      if (end >= text.length) return { positions, length };
      if (text.charCodeAt(end) === QUOTE) {
        if (text.charCodeAt(end + 1) !== QUOTE) break;
        lexeme += text.slice(start, end + 1);
        end += 2;
        start = end;
      } else end++;
    }
    lexeme += text.slice(start, end);
    index = end + 1;
    const keep = wanted.has(lexeme);
    if (text.charCodeAt(index) !== COLON) {
      length += 1;
      if (keep) positions.set(lexeme, []);
      continue;
    }
    index++;
    const found: number[] = [];
    let value = 0;
    for (;;) {
      const code = text.charCodeAt(index);
      if (code >= DIGIT_0 && code <= DIGIT_9) value = value * 10 + (code - DIGIT_0);
      else if (!(code >= WEIGHT_A && code <= WEIGHT_D)) {
        found.push(value);
        value = 0;
        if (code !== COMMA) break;
      }
      index++;
    }
    length += found.length;
    if (keep) positions.set(lexeme, found);
  }
  return { positions, length };
}

const QUOTE = 39;
const COLON = 58;
const COMMA = 44;
const DIGIT_0 = 48;
const DIGIT_9 = 57;
const WEIGHT_A = 65;
const WEIGHT_D = 68;

export interface CorpusFigures {
  readonly documents: number;
  readonly meanLength: number;
  documentFrequency(lexeme: string): number;
}

export interface Candidate {
  /** Positions of the query's lexemes in the chunk's search_vector. */
  readonly positions: ReadonlyMap<string, readonly number[]>;
  /** Token positions in the whole search_vector. */
  readonly length: number;
  /** Query lexemes the title holds. */
  readonly titleLexemes: ReadonlySet<string>;
  /** pg_textsearch's score for the query (positive, higher is better). */
  readonly score: number;
  /** Cosine with the query under the embedder the weights were trained with; undefined when unknown. */
  readonly cosine?: number;
}

export const idfOf = (documents: number, frequency: number): number => Math.log(1 + (documents - frequency + 0.5) / (frequency + 0.5));

/** Feature vector in RERANK_FEATURES order; `topScore` is the best bm25 score among the candidates. */
export function candidateFeatures(terms: readonly QueryTerm[], candidate: Candidate, topScore: number, corpus: CorpusFigures): Float64Array {
  const features = new Float64Array(RERANK_FEATURES.length);
  const normaliser = topScore > 0 ? topScore : 1;
  const lengthFactor = K1 * (1 - B + (B * candidate.length) / Math.max(1, corpus.meanLength));
  let idfTotal = 0;
  let titleShare = 0;
  const idfs = new Map<string, number>();
  const occurrences: { position: number; lexeme: string }[] = [];
  for (const term of terms) {
    const idf = idfOf(corpus.documents, corpus.documentFrequency(term.lexeme));
    idfs.set(term.lexeme, idf);
    idfTotal += idf;
    if (candidate.titleLexemes.has(term.lexeme)) titleShare += idf;
    const positions = candidate.positions.get(term.lexeme);
    if (!positions) continue;
    const frequency = Math.max(1, positions.length);
    const contribution = (term.count * idf * frequency * (K1 + 1)) / (frequency + lengthFactor) / normaliser;
    if (term.numeric) features[1] += contribution;
    if (term.alphanumeric) features[2] += contribution;
    if (term.acronym) features[3] += contribution;
    if (idf >= RARE_IDF) features[4] += contribution;
    if (term.count >= 2) features[5] += contribution;
    if (term.leading) features[6] += contribution;
    for (const position of positions) occurrences.push({ position, lexeme: term.lexeme });
  }
  features[0] = candidate.score / normaliser;
  features[7] = idfTotal > 0 ? titleShare / idfTotal : 0;
  features[8] = idfTotal > 0 ? bestWindow(occurrences, idfs) / idfTotal : 0;
  features[9] = candidate.cosine ?? 0;
  return features;
}

/** Largest idf mass of distinct query terms inside any WINDOW_POSITIONS-wide span (two pointers). */
function bestWindow(occurrences: { position: number; lexeme: string }[], idfs: ReadonlyMap<string, number>): number {
  occurrences.sort((a, b) => a.position - b.position);
  const inWindow = new Map<string, number>();
  let mass = 0;
  let best = 0;
  let start = 0;
  for (const { position, lexeme } of occurrences) {
    const seen = inWindow.get(lexeme) ?? 0;
    if (seen === 0) mass += idfs.get(lexeme) ?? 0;
    inWindow.set(lexeme, seen + 1);
    while (position - occurrences[start].position >= WINDOW_POSITIONS) {
      const leaving = occurrences[start++].lexeme;
      const left = (inWindow.get(leaving) ?? 1) - 1;
      inWindow.set(leaving, left);
      if (left === 0) mass -= idfs.get(leaving) ?? 0;
    }
    if (mass > best) best = mass;
  }
  return best;
}
