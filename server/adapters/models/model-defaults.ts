import type { TierConfig } from '../../runtime/config/config-schema';

/**
 * Defaults for a tier's capabilities when `context-runtime.yaml` leaves them out — the one place
 * these numbers live. Every value is overridable per tier in the config.
 *
 * Prices are USD per million tokens from the providers' public price lists as of 2025-10:
 *   gpt-4.1-mini        $0.40 in / $1.60 out, 1,047,576-token window, 32,768 max output (openai.com/api/pricing)
 *   claude-haiku-4-5    $1.00 in / $5.00 out,   200,000-token window, 64,000 max output (anthropic.com/pricing)
 * openai-compatible servers are usually self-hosted (Ollama, vLLM): free per token, 8k window until
 * configured. The extractive reader is local and free. Speeds and quality priors are starting
 * points the cost model refines from observed runs.
 */
export interface ProviderDefaults {
  readonly model: string;
  readonly apiKeyEnv?: string;
  readonly contextWindow: number;
  readonly maxOutputTokens: number;
  readonly inputUsdPerMillion: number;
  readonly outputUsdPerMillion: number;
  readonly firstTokenSeconds: number;
  readonly secondsPerOutputToken: number;
  readonly qualityPrior: number;
}

export const PROVIDER_DEFAULTS: Readonly<Record<TierConfig['provider'], ProviderDefaults>> = Object.freeze({
  extractive: {
    model: 'extractive-v1',
    contextWindow: 128_000,
    maxOutputTokens: 1_024,
    inputUsdPerMillion: 0,
    outputUsdPerMillion: 0,
    // Measured: a 6-item incident context (~700 prompt tokens) reads in ~7 ms once the tokenizer is warm.
    firstTokenSeconds: 0.01,
    secondsPerOutputToken: 0.00001,
    // It can only quote; it cannot combine facts into a conclusion.
    qualityPrior: 0.45,
  },
  openai: {
    model: 'gpt-4.1-mini',
    apiKeyEnv: 'OPENAI_API_KEY',
    contextWindow: 1_047_576,
    maxOutputTokens: 32_768,
    inputUsdPerMillion: 0.4,
    outputUsdPerMillion: 1.6,
    firstTokenSeconds: 0.6,
    secondsPerOutputToken: 0.012,
    qualityPrior: 0.8,
  },
  anthropic: {
    model: 'claude-haiku-4-5',
    apiKeyEnv: 'ANTHROPIC_API_KEY',
    contextWindow: 200_000,
    maxOutputTokens: 64_000,
    inputUsdPerMillion: 1.0,
    outputUsdPerMillion: 5.0,
    firstTokenSeconds: 0.7,
    secondsPerOutputToken: 0.01,
    qualityPrior: 0.82,
  },
  'openai-compatible': {
    model: 'default',
    contextWindow: 8_192,
    maxOutputTokens: 2_048,
    inputUsdPerMillion: 0,
    outputUsdPerMillion: 0,
    firstTokenSeconds: 0.4,
    secondsPerOutputToken: 0.03,
    qualityPrior: 0.6,
  },
});

/** True when `baseUrl` names this machine: such an endpoint keeps data local. */
export function isLoopbackUrl(baseUrl: string | undefined): boolean {
  if (!baseUrl) return false;
  const host = new URL(baseUrl).hostname.replace(/^\[|\]$/g, '');
  return host === 'localhost' || host === '::1' || /^127\./.test(host);
}
