import { createOpenAI } from '@ai-sdk/openai';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { APICallError } from '@ai-sdk/provider';
import { embedMany, type EmbeddingModel } from 'ai';
import { EMBEDDER_CONTRACT, type EmbedderPlugin, type EmbedOptions } from '../../runtime/contracts/embedder';
import { ContextRuntimeError, invalidInput } from '../../runtime/errors';
import { isLoopbackUrl } from '../models/model-defaults';

export interface AiSdkEmbedderConfig {
  /** 'openai' (api.openai.com or a proxy at baseURL) or 'openai-compatible' (Ollama, vLLM, LM Studio: baseURL required). */
  readonly provider: 'openai' | 'openai-compatible';
  /** e.g. "text-embedding-3-small", "nomic-embed-text". */
  readonly model: string;
  readonly baseURL?: string;
  /** Already resolved from the environment by the caller; Ollama needs none. */
  readonly apiKey?: string;
  /** Provider name in the embedder id for openai-compatible servers (default "openai-compatible"), e.g. "ollama". */
  readonly name?: string;
  /** Per call; default 60 s (a batch of 256 chunks to a CPU-bound Ollama can take tens of seconds). */
  readonly timeoutMs?: number;
  /** Whether texts stay on this machine; default: an openai-compatible server on a loopback address. */
  readonly local?: boolean;
}

/** Chunks are a few hundred tokens; the cap only stops a pathological text from failing a whole batch on the 8,192-token input limit. */
const MAX_INPUT_CHARACTERS = 16_000;

/**
 * An EmbedderPlugin over the AI SDK's embedMany (which splits batches to the provider's
 * per-call limit). The dimension is whatever the provider's first response says — models and
 * `dimensions` settings vary — and a later response of another size is refused rather than mixed
 * into the same stored space.
 */
export class AiSdkEmbedder implements EmbedderPlugin {
  readonly contract = EMBEDDER_CONTRACT;
  readonly id: string;
  readonly local: boolean;
  private knownDimensions = 0;

  constructor(
    private readonly model: EmbeddingModel,
    private readonly config: AiSdkEmbedderConfig,
  ) {
    this.id = `${config.provider === 'openai' ? 'openai' : (config.name ?? 'openai-compatible')}:${config.model}`;
    this.local = config.local ?? (config.provider === 'openai-compatible' && isLoopbackUrl(config.baseURL));
  }

  /** 0 until the provider has answered once. */
  get dimensions(): number {
    return this.knownDimensions;
  }

  async embed(texts: readonly string[], options: EmbedOptions = {}): Promise<readonly Float32Array[]> {
    options.signal?.throwIfAborted();
    if (texts.length === 0) return [];
    // OpenAI rejects empty strings; one space embeds as "nothing" without failing the batch.
    const values = texts.map((text) => (text.trim().length === 0 ? ' ' : text.slice(0, MAX_INPUT_CHARACTERS)));
    const timeoutMs = this.config.timeoutMs ?? 60_000;
    const timeout = AbortSignal.timeout(timeoutMs);
    // The caller's signal (an ingest cancelled or past its time) closes the request in flight too.
    const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
    let embeddings: number[][];
    try {
      ({ embeddings } = await embedMany({ model: this.model, values, maxRetries: 2, abortSignal: signal }));
    } catch (error) {
      if (options.signal?.aborted) throw abortReason(options.signal, this.id);
      if (timeout.aborted) throw new ContextRuntimeError('TIMEOUT', `embedder ${this.id} did not answer within ${timeoutMs} ms`, { details: { embedderId: this.id }, cause: error });
      const statusCode = APICallError.isInstance(error) ? error.statusCode : undefined;
      const message = error instanceof Error ? error.message : String(error);
      throw new ContextRuntimeError('MODEL_UNAVAILABLE', `embedder ${this.id} failed: ${statusCode ? `HTTP ${statusCode}: ` : ''}${message}`, {
        details: { embedderId: this.id, statusCode },
        cause: error,
      });
    }
    const dimensions = embeddings[0]?.length ?? 0;
    if (embeddings.length !== texts.length || dimensions === 0 || embeddings.some((embedding) => embedding.length !== dimensions)) {
      throw new ContextRuntimeError('MODEL_UNAVAILABLE', `embedder ${this.id} returned ${embeddings.length} vectors of uneven size for ${texts.length} texts`, { details: { embedderId: this.id } });
    }
    if (this.knownDimensions === 0) this.knownDimensions = dimensions;
    else if (dimensions !== this.knownDimensions) {
      throw new ContextRuntimeError('MODEL_UNAVAILABLE', `embedder ${this.id} changed dimension from ${this.knownDimensions} to ${dimensions}; re-embedding under a new id is required`, {
        details: { embedderId: this.id, before: this.knownDimensions, after: dimensions },
      });
    }
    return Object.freeze(embeddings.map((embedding) => Float32Array.from(embedding)));
  }
}

/** The caller's own reason when it gave an Error (its timeout, its cancel), else a plain one. */
function abortReason(signal: AbortSignal, embedderId: string): Error {
  return signal.reason instanceof Error ? signal.reason : new ContextRuntimeError('TIMEOUT', `embedder ${embedderId}: the call was aborted by its caller`, { details: { embedderId } });
}

export function createAiSdkEmbedder(config: AiSdkEmbedderConfig): AiSdkEmbedder {
  if (!config.model.trim()) throw invalidInput('embeddings.model', 'must not be empty');
  if (config.provider === 'openai') {
    return new AiSdkEmbedder(createOpenAI({ apiKey: config.apiKey, baseURL: config.baseURL }).embeddingModel(config.model), config);
  }
  if (!config.baseURL) throw invalidInput('embeddings.base_url', 'openai-compatible embedders need base_url');
  const provider = createOpenAICompatible({ name: config.name ?? 'openai-compatible', baseURL: config.baseURL, apiKey: config.apiKey });
  return new AiSdkEmbedder(provider.embeddingModel(config.model), config);
}
