/**
 * Semantic intent matching: an embedding of the normalized goal plus an alignment of its content
 * words. The embedding alone is not enough: with SIF over word vectors a paraphrase ("why did X
 * fail after the deploy" / "what caused the X failure after the deployment": 0.86) and a changed
 * topic ("how does X handle rate limiting" / "… retries": 0.89) score alike, measured. Requiring
 * every content word on each side to meet its counterpart (same stem, or word vectors close)
 * separates them: a paraphrase swaps words for near-synonyms, a new question brings new ones.
 */
import type { EmbedderPlugin } from '../contracts/embedder';
import { REQUEST_STOPWORDS } from '../text/english-stopwords';
import { stem, tokenize } from '../text/text-terms';
import { LruMap } from './lru-map';

export interface IntentMatchSettings {
  /** Cosine of the goal embeddings a match needs. */
  readonly threshold: number;
  /** Share of content words (each side; the lower counts) that need a counterpart. */
  readonly termCoverage: number;
  /** Word-vector cosine at which two different words count as counterparts. */
  readonly termSimilarity: number;
}

/** Bumped when focusText or the term rules change. */
const MATCHER_VERSION = 'focus-v1';

export const DEFAULT_INTENT_MATCH: IntentMatchSettings = Object.freeze({ threshold: 0.8, termCoverage: 0.75, termSimilarity: 0.6 });

interface Term {
  readonly stem: string;
  /** The word's vector scaled to unit length (zero stays zero): the cosine of two terms is their dot product. */
  readonly unit: Float32Array;
}

export interface PreparedIntent {
  readonly text: string;
  readonly vector: Float32Array;
  readonly terms: readonly Term[];
}

export interface IntentMatch {
  readonly similarity: number;
  readonly termCoverage: number;
  readonly matched: boolean;
}

export function cosine(left: Float32Array, right: Float32Array): number {
  if (left.length !== right.length) return 0;
  let dot = 0;
  let leftNorm = 0;
  let rightNorm = 0;
  for (let index = 0; index < left.length; index++) {
    dot += left[index] * right[index];
    leftNorm += left[index] * left[index];
    rightNorm += right[index] * right[index];
  }
  return leftNorm === 0 || rightNorm === 0 ? 0 : dot / Math.sqrt(leftNorm * rightNorm);
}

function dot(left: Float32Array, right: Float32Array): number {
  if (left.length !== right.length) return 0;
  let sum = 0;
  for (let index = 0; index < left.length; index++) sum += left[index] * right[index];
  return sum;
}

function unitVector(vector: Float32Array): Float32Array {
  let norm = 0;
  for (const value of vector) norm += value * value;
  if (norm === 0) return vector;
  const scale = 1 / Math.sqrt(norm);
  return vector.map((value) => value * scale);
}

/** Words that frame a question rather than say what it is about ("what caused X" = "why did X"). */
const QUESTION_FRAME: ReadonlySet<string> = new Set(
  'cause caused causes causing happen happened happens reason reasons make makes made way kind sort describe list look see lookup today now currently recently right still'.split(' '),
);

/** Plain words only: identifiers and entity names are matched exactly in the intent shape. */
function contentWords(text: string): string[] {
  return [...new Set(tokenize(text).filter((token) => /^[a-z]{2,}$/.test(token) && !REQUEST_STOPWORDS.has(token) && !QUESTION_FRAME.has(token)))];
}

/** The goal's tokens minus stopwords and question framing (identifiers kept whole). */
export function focusText(text: string): string {
  const kept = tokenize(text).filter((token) => !REQUEST_STOPWORDS.has(token) && !QUESTION_FRAME.has(token));
  return kept.length > 0 ? kept.join(' ') : text;
}

export class IntentMatcher {
  private readonly intents: LruMap<string, Promise<PreparedIntent>>;
  /** Each word's unit vector (unitVector), embedded once. */
  private readonly words: LruMap<string, Float32Array>;

  constructor(
    private readonly embedder: EmbedderPlugin,
    readonly settings: IntentMatchSettings = DEFAULT_INTENT_MATCH,
    memoSize = 4096,
  ) {
    this.intents = new LruMap(memoSize);
    this.words = new LruMap(memoSize * 4);
  }

  /** The embedder and this module's text preparation: vectors made either way differently are never compared. */
  get embedderId(): string {
    return `${this.embedder.id}+${MATCHER_VERSION}`;
  }

  /** Embeds a goal and its words once; repeats (the lookup, then the put) reuse it. */
  prepare(text: string): Promise<PreparedIntent> {
    let prepared = this.intents.get(text);
    if (!prepared) {
      prepared = this.embed(text);
      this.intents.set(text, prepared);
      // A failed embedding is not remembered: the next lookup tries again.
      prepared.catch(() => this.intents.delete(text));
    }
    return prepared;
  }

  /** Prepares a stored intent whose goal vector is known (only its words may need embedding). */
  async prepareStored(text: string, vector: Float32Array): Promise<PreparedIntent> {
    return Object.freeze({ text, vector, terms: await this.termsOf(text) });
  }

  /** The goals' embedding cosine alone (a near miss needs NEAR_MISS_FLOOR of it before words are aligned). */
  similarity(left: PreparedIntent, right: PreparedIntent): number {
    return left.text === right.text ? 1 : cosine(left.vector, right.vector);
  }

  /**
   * The lookup's question only: the similarity when the two goals match, else undefined. Same
   * verdict as `match`, but the word alignment (a dot product per word pair) is skipped below the
   * cosine threshold and stops once too many of `left`'s words lack a counterpart to reach the
   * coverage: on bench:retrieval's SciFact run most claims share a key and a cosine above the
   * threshold, so every lookup aligned a bucket of ~120 stored claims in full (plan_cache p50 0.69 ms).
   */
  matchedSimilarity(left: PreparedIntent, right: PreparedIntent): number | undefined {
    if (left.text === right.text) return 1;
    const similarity = cosine(left.vector, right.vector);
    if (similarity < this.settings.threshold) return undefined;
    return this.coverage(left.terms, right.terms, this.settings.termCoverage) >= this.settings.termCoverage ? similarity : undefined;
  }

  match(left: PreparedIntent, right: PreparedIntent): IntentMatch {
    if (left.text === right.text) return { similarity: 1, termCoverage: 1, matched: true };
    const similarity = cosine(left.vector, right.vector);
    const termCoverage = this.coverage(left.terms, right.terms);
    return { similarity, termCoverage, matched: similarity >= this.settings.threshold && termCoverage >= this.settings.termCoverage };
  }

  /**
   * The lower of the two sides' shares of words that meet a counterpart, from one pass over the
   * word pairs (each pair's dot product of unit vectors once, not a cosine per side): a plan-cache
   * miss's near-miss diagnosis matches the goal against every nearby stored goal, and this was
   * most of it on bench:retrieval's SciFact run (~1 ms a query behind the request).
   */
  private coverage(left: readonly Term[], right: readonly Term[], needed?: number): number {
    if (left.length === 0 || right.length === 0) return left.length === right.length ? 1 : 0;
    const rightMet = new Uint8Array(right.length);
    let leftCovered = 0;
    let leftMissed = 0;
    for (const term of left) {
      let met = false;
      for (let index = 0; index < right.length; index++) {
        const other = right[index];
        if (other.stem === term.stem || dot(other.unit, term.unit) >= this.settings.termSimilarity) {
          met = true;
          rightMet[index] = 1;
        }
      }
      if (met) leftCovered++;
      // With `needed`, a left side that can no longer reach it ends the alignment: the share returned,
      // its best case, is below `needed` (computed as the caller's comparison is, so never off by a rounding).
      else if (needed !== undefined && (left.length - ++leftMissed) / left.length < needed) return (left.length - leftMissed) / left.length;
    }
    let rightCovered = 0;
    for (const flag of rightMet) rightCovered += flag;
    return Math.min(leftCovered / left.length, rightCovered / right.length);
  }

  /**
   * The embedded text is the goal without stopwords and question framing: on short goals the
   * frame ("give me an overview of") otherwise dominates the average and pulls unrelated
   * questions together while pushing paraphrases apart.
   */
  private async embed(text: string): Promise<PreparedIntent> {
    const [[vector], terms] = await Promise.all([this.embedder.embed([focusText(text)]), this.termsOf(text)]);
    return Object.freeze({ text, vector, terms });
  }

  private async termsOf(text: string): Promise<readonly Term[]> {
    const words = contentWords(text);
    const known = new Map(words.map((word) => [word, this.words.get(word)]));
    const missing = words.filter((word) => !known.get(word));
    if (missing.length > 0) {
      const vectors = await this.embedder.embed(missing);
      missing.forEach((word, index) => {
        const unit = unitVector(vectors[index]);
        known.set(word, unit);
        this.words.set(word, unit);
      });
    }
    return Object.freeze(words.map((word) => ({ stem: stem(word), unit: known.get(word)! })));
  }
}
