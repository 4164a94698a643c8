import { TimeSlice } from '../../runtime/scheduler/time-slice';
import { vocabularyTokens } from './sif-tokenizer';
import type { WordVectors } from './word-vectors';

/**
 * Smooth Inverse Frequency sentence embeddings (Arora, Liang & Ma, "A Simple but Tough-to-Beat
 * Baseline for Sentence Embeddings", ICLR 2017): v_s = (1/|s|) Σ a/(a+p(w)) v_w, then remove the
 * projection on the first singular vector u of the corpus's v_s (v_s − u uᵀ v_s).
 *
 * p(w) is the corpus's own unigram frequency, Dirichlet-smoothed (Zhai & Lafferty, SIGIR 2001)
 * towards a Zipf prior read from the vocabulary's frequency rank r:
 *   p(w) = (count(w) + μ·p_zipf(w)) / (N + μ),   p_zipf(w) = 1 / ((r+1)·H_V).
 * A small corpus (the demo, a unit test) thus leans on general-English frequencies and a large
 * one on its own, and a query word the corpus never used still gets a sensible weight.
 */
export const SIF_A = 1e-3;
/** Tokens of corpus evidence worth as much as the prior: ~50 chunks of 200 words (a judgement, not a fit). */
export const SMOOTHING_TOKENS = 10_000;
/** Below this many texts the first singular vector describes the texts themselves, not a shared discourse direction. */
export const MIN_TEXTS_FOR_COMPONENT = 20;

/** What a fit persists: the corpus statistics queries must share with the stored vectors. */
export interface SifState {
  readonly version: 1;
  /** Texts (chunks) the statistics were fitted on. */
  readonly textCount: number;
  /** In-vocabulary tokens counted (N). */
  readonly totalTokens: number;
  /** Corpus counts by word (words, not rows: they survive a vocabulary rebuild). */
  readonly counts: Readonly<Record<string, number>>;
  /** First singular vector of the corpus's weighted averages (unit length), or all zeros when not removed. */
  readonly component: readonly number[];
}

export interface CompiledSif {
  readonly weights: Float32Array;
  readonly component: Float64Array;
}

/** Per-row weights a/(a+p(w)) for the whole vocabulary (341k rows: ~2 ms, read on every token). */
export function compileSif(vectors: WordVectors, state: SifState | undefined): CompiledSif {
  const harmonic = Math.log(vectors.size) + 0.5772156649 + 1 / (2 * vectors.size);
  const counts = new Float64Array(vectors.size);
  for (const [word, count] of Object.entries(state?.counts ?? {})) {
    const row = vectors.rowOf(word);
    if (row >= 0) counts[row] = count;
  }
  const total = (state?.totalTokens ?? 0) + SMOOTHING_TOKENS;
  const weights = new Float32Array(vectors.size);
  for (let row = 0; row < vectors.size; row += 1) {
    const probability = (counts[row] + SMOOTHING_TOKENS / ((row + 1) * harmonic)) / total;
    weights[row] = SIF_A / (SIF_A + probability);
  }
  const component = new Float64Array(vectors.dimensions);
  if (state && state.component.length === vectors.dimensions) component.set(state.component);
  return { weights, component };
}

/** The weighted average before component removal; all zeros when no word is in the vocabulary. */
export function weightedAverage(text: string, vectors: WordVectors, weights: Float32Array): Float64Array {
  const sum = new Float64Array(vectors.dimensions);
  const rows = vocabularyTokens(text, vectors.rowOf);
  for (const row of rows) vectors.addScaled(row, weights[row], sum);
  if (rows.length > 0) for (let index = 0; index < sum.length; index += 1) sum[index] /= rows.length;
  return sum;
}

/** Removes the common component and normalises to unit length (cosine = dot product). */
export function finishEmbedding(average: Float64Array, component: Float64Array): Float32Array {
  let projection = 0;
  for (let index = 0; index < average.length; index += 1) projection += average[index] * component[index];
  let norm = 0;
  for (let index = 0; index < average.length; index += 1) {
    average[index] -= projection * component[index];
    norm += average[index] * average[index];
  }
  const result = new Float32Array(average.length);
  if (norm === 0) return result;
  const scale = 1 / Math.sqrt(norm);
  for (let index = 0; index < average.length; index += 1) result[index] = average[index] * scale;
  return result;
}

/**
 * Two passes over the corpus (counts, then the weighted averages' second-moment matrix Σ x xᵀ,
 * so the texts' vectors are never all held) and power iteration for the top singular vector.
 * Uncentred, as in the authors' code (TruncatedSVD). Deterministic: fixed start, fixed sign.
 *
 * Both passes and the iteration yield on a time budget (time-slice.ts): awaiting an embedded PGlite
 * read gives the event loop no turn (the statement runs synchronously), so a refit after a
 * 10,000-file ingest held it for 45 s in bench:ingest-load, every request waiting.
 */
export async function fitSif(vectors: WordVectors, readTexts: () => AsyncIterable<readonly string[]>): Promise<SifState> {
  const countsByRow = new Map<number, number>();
  let totalTokens = 0;
  let textCount = 0;
  const slice = new TimeSlice();
  for await (const batch of readTexts()) {
    for (const text of batch) {
      await slice.yieldIfSpent();
      textCount += 1;
      for (const row of vocabularyTokens(text, vectors.rowOf)) {
        countsByRow.set(row, (countsByRow.get(row) ?? 0) + 1);
        totalTokens += 1;
      }
    }
  }
  const counts: Record<string, number> = {};
  for (const row of [...countsByRow.keys()].sort((left, right) => left - right)) counts[vectors.wordAt(row)] = countsByRow.get(row)!;
  const partial: SifState = { version: 1, textCount, totalTokens, counts, component: [] };
  const { weights } = compileSif(vectors, partial);
  const dimensions = vectors.dimensions;
  const moment = new Float64Array(dimensions * dimensions);
  const mean = new Float64Array(dimensions);
  for await (const batch of readTexts()) {
    for (const text of batch) {
      await slice.yieldIfSpent();
      const x = weightedAverage(text, vectors, weights);
      for (let row = 0; row < dimensions; row += 1) {
        mean[row] += x[row];
        for (let column = 0; column < dimensions; column += 1) moment[row * dimensions + column] += x[row] * x[column];
      }
    }
  }
  const component = textCount >= MIN_TEXTS_FOR_COMPONENT ? await topEigenvector(moment, mean, dimensions, slice) : new Array<number>(dimensions).fill(0);
  return Object.freeze({ ...partial, component: Object.freeze(component) });
}

async function topEigenvector(matrix: Float64Array, start: Float64Array, dimensions: number, slice: TimeSlice): Promise<number[]> {
  let vector = Float64Array.from(start);
  if (normalise(vector) === 0) vector = new Float64Array(dimensions).fill(1 / Math.sqrt(dimensions));
  for (let iteration = 0; iteration < 1000; iteration += 1) {
    await slice.yieldIfSpent();
    const next = new Float64Array(dimensions);
    for (let row = 0; row < dimensions; row += 1) {
      let sum = 0;
      for (let column = 0; column < dimensions; column += 1) sum += matrix[row * dimensions + column] * vector[column];
      next[row] = sum;
    }
    if (normalise(next) === 0) return new Array<number>(dimensions).fill(0);
    let change = 0;
    for (let index = 0; index < dimensions; index += 1) change = Math.max(change, Math.abs(next[index] - vector[index]));
    vector = next;
    if (change < 1e-12) break;
  }
  let largest = 0;
  for (let index = 1; index < dimensions; index += 1) if (Math.abs(vector[index]) > Math.abs(vector[largest])) largest = index;
  const sign = vector[largest] < 0 ? -1 : 1;
  return Array.from(vector, (value) => value * sign);
}

function normalise(vector: Float64Array): number {
  const norm = Math.sqrt(vector.reduce((sum, value) => sum + value * value, 0));
  if (norm > 0) for (let index = 0; index < vector.length; index += 1) vector[index] /= norm;
  return norm;
}
