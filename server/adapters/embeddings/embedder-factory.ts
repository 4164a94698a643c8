import type { EmbedderPlugin } from '../../runtime/contracts/embedder';
import { createAiSdkEmbedder } from './ai-sdk-embedder';
import { SifEmbedder } from './sif-embedder';
import { openWordVectors } from './word-vectors';

/** The `embeddings` config section this factory reads (snake_case, as in context-runtime.yaml). */
export interface EmbeddingsSettings {
  /** 'sif' (default, offline), 'openai', or 'openai-compatible' (Ollama, vLLM, LM Studio). */
  readonly provider?: 'sif' | 'openai' | 'openai-compatible';
  readonly model?: string;
  readonly base_url?: string;
  /** Environment variable holding the key; default OPENAI_API_KEY for openai, none for openai-compatible. */
  readonly api_key_env?: string;
  /** Provider name in the embedder id for openai-compatible servers, e.g. "ollama". */
  readonly name?: string;
  /** Word-vector cache of the sif embedder. */
  readonly cache_path?: string;
  readonly timeout_ms?: number;
  /** Texts stay on this machine (sent unredacted); default: a loopback base_url. */
  readonly local?: boolean;
}

export type ResolvedEmbedder =
  | { readonly available: true; readonly embedder: EmbedderPlugin }
  | { readonly available: false; readonly embedderId: string; readonly unavailableReason: string };

const DEFAULT_OPENAI_MODEL = 'text-embedding-3-small';

/**
 * The configured embedder, or why it cannot run (a missing key): like a model tier, the dense
 * retriever is then reported unavailable with that reason rather than silently switched to
 * another vector space. `environment` holds the key named by `api_key_env`; `defaults.wordVectorCache`
 * is CONTEXT_RUNTIME_EMBEDDINGS_CACHE, which the config's `cache_path` overrides.
 */
export function resolveEmbedder(
  settings: EmbeddingsSettings,
  environment: Readonly<Record<string, string | undefined>>,
  defaults: { readonly wordVectorCache?: string } = {},
): ResolvedEmbedder {
  const provider = settings.provider ?? 'sif';
  if (provider === 'sif') return { available: true, embedder: new SifEmbedder(() => openWordVectors({ cachePath: settings.cache_path ?? defaults.wordVectorCache })) };
  const model = settings.model ?? (provider === 'openai' ? DEFAULT_OPENAI_MODEL : '');
  const embedderId = `${provider === 'openai' ? 'openai' : (settings.name ?? 'openai-compatible')}:${model}`;
  const keyVariable = settings.api_key_env ?? (provider === 'openai' ? 'OPENAI_API_KEY' : undefined);
  const apiKey = keyVariable ? environment[keyVariable]?.trim() : undefined;
  if (keyVariable && !apiKey) return { available: false, embedderId, unavailableReason: `${keyVariable} is not set` };
  if (provider === 'openai-compatible' && (!settings.base_url || !model)) {
    return { available: false, embedderId, unavailableReason: 'openai-compatible embeddings need base_url and model' };
  }
  return {
    available: true,
    embedder: createAiSdkEmbedder({ provider, model, baseURL: settings.base_url, apiKey, name: settings.name, timeoutMs: settings.timeout_ms, ...(settings.local !== undefined ? { local: settings.local } : {}) }),
  };
}
