import { createAnthropic } from '@ai-sdk/anthropic';
import { createOpenAI } from '@ai-sdk/openai';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import type { LanguageModelV3 } from '@ai-sdk/provider';
import type { TierConfig } from '../../runtime/config/config-schema';
import { createExtractiveLanguageModel } from './extractive-language-model';
import { PROVIDER_DEFAULTS } from './model-defaults';

export type Environment = Readonly<Record<string, string | undefined>>;

export type ResolvedLanguageModel =
  | { readonly available: true; readonly model: LanguageModelV3; readonly modelId: string }
  | { readonly available: false; readonly modelId: string; readonly unavailableReason: string };

function apiKeyFor(tier: TierConfig, environment: Environment): { key?: string; missing?: string } {
  const variable = tier.api_key_env ?? PROVIDER_DEFAULTS[tier.provider].apiKeyEnv;
  if (!variable) return {};
  const key = environment[variable];
  return key && key.trim().length > 0 ? { key } : { missing: `${variable} is not set` };
}

/**
 * The AI SDK LanguageModel a tier speaks through. A tier that cannot be reached (no key, no
 * endpoint) resolves to a reason instead of throwing, so the planner can prune it and say why.
 */
export function resolveLanguageModel(tier: TierConfig, environment: Environment): ResolvedLanguageModel {
  const modelId = tier.model ?? PROVIDER_DEFAULTS[tier.provider].model;
  const unavailable = (unavailableReason: string) => ({ available: false as const, modelId, unavailableReason });
  if (tier.provider === 'extractive') return { available: true, model: createExtractiveLanguageModel(), modelId };
  const apiKey = apiKeyFor(tier, environment);
  if (apiKey.missing) return unavailable(apiKey.missing);
  switch (tier.provider) {
    case 'openai':
      // Chat Completions rather than the Responses API: the same wire protocol as every
      // OpenAI-compatible server, so one loopback server tests both paths.
      return { available: true, model: createOpenAI({ apiKey: apiKey.key, baseURL: tier.base_url }).chat(modelId), modelId };
    case 'anthropic':
      return { available: true, model: createAnthropic({ apiKey: apiKey.key, baseURL: tier.base_url }).languageModel(modelId), modelId };
    case 'openai-compatible': {
      if (!tier.base_url) return unavailable('openai-compatible tiers need base_url');
      if (!tier.model) return unavailable('openai-compatible tiers need model');
      // includeUsage asks streaming servers for the usage chunk; the router prices calls from it.
      const provider = createOpenAICompatible({ name: tier.name, baseURL: tier.base_url, apiKey: apiKey.key, includeUsage: true });
      return { available: true, model: provider.chatModel(modelId), modelId };
    }
  }
}
