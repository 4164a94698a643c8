/** Contract version of the Embedder plugin. */
export const EMBEDDER_CONTRACT = 'embedder/v1' as const;

/** Turns text into vectors; stored per (chunk, embedder id) so switching embedders re-embeds. */
export interface EmbedderPlugin {
  readonly contract: typeof EMBEDDER_CONTRACT;
  /** Stable id, e.g. "sif-glove-100d" or "openai:text-embedding-3-small". */
  readonly id: string;
  /** Vector dimension, reported by the provider. */
  readonly dimensions: number;
  /** `signal`: aborting it aborts the provider call in flight (an ingest cancelled or timed out). */
  embed(texts: readonly string[], options?: EmbedOptions): Promise<readonly Float32Array[]>;
}

export interface EmbedOptions {
  readonly signal?: AbortSignal;
}
