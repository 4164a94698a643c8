/**
 * The router a reason node's reasoner calls when the model-context cache is on: the same contract,
 * with each call answered from the cache when it may be, and a fresh answer kept. Only an answer
 * from the tier asked for is kept: a fallback's answer came from another model than the key names.
 */
import type { RoutedResult, RouterPlugin } from '../contracts/router';
import type { ContextItem } from '../types';
import { canonicalSources, modelCacheKey } from './model-cache-key';
import type { HitCheck, ModelContextCache } from './model-context-cache';

/** What one reason node's calls are cached under: its context, its intent, and the caller's rights. */
export interface CallScope extends HitCheck {
  /** The passages the node's prompt is built from (before any are withheld from a remote tier: a superset is safe). */
  readonly items: readonly ContextItem[];
  readonly intentClass: string;
}

export function cachedRouter(router: RouterPlugin, cache: ModelContextCache, scope: CallScope): RouterPlugin {
  const sources = canonicalSources(scope.items.map((item) => ({ name: item.hit.sourceName, versionId: item.hit.sourceVersionId })));
  const chunkIds = Object.freeze([...new Set(scope.items.map((item) => item.hit.chunkId))]);
  return Object.freeze({
    contract: router.contract,
    tiers: () => router.tiers(),
    countTokens: (tier: string, text: string) => router.countTokens(tier, text),
    async complete(tier, request, options): Promise<RoutedResult> {
      const model = router.tiers().find((info) => info.name === tier)?.capabilities;
      // An unknown tier is the router's error to name. A tool loop's answer rests on what its tools
      // read at call time, under this run's rights: never served from, nor kept in, the cache.
      if (!model || request.toolLoop) return router.complete(tier, request, options);
      const key = modelCacheKey({ provider: model.provider, modelId: model.modelId, messages: request.messages, maxOutputTokens: request.maxOutputTokens, localOnly: options?.localOnly ?? false, sources });
      const started = performance.now();
      const entry = await cache.find(key, model.modelId, scope.intentClass, scope);
      if (entry) {
        return Object.freeze({
          text: entry.text,
          // Nothing was spent: the node's actuals and the run's budget count what this call cost, zero.
          usage: Object.freeze({ inputTokens: 0, outputTokens: 0 }),
          costUsd: 0,
          latencyMs: Math.round(performance.now() - started),
          modelId: entry.modelId,
          tier: entry.tier,
          fallbacks: Object.freeze([]),
          cache: Object.freeze({ status: 'hit' as const, savedTokens: entry.usage.inputTokens + entry.usage.outputTokens, savedCostUsd: entry.costUsd }),
        });
      }
      const result = await router.complete(tier, request, options);
      if (result.tier === tier && result.fallbacks.length === 0) {
        await cache.keep({ key, modelId: result.modelId, tier: result.tier, sources, chunkIds, text: result.text, usage: result.usage, costUsd: result.costUsd, latencyMs: result.latencyMs });
      }
      return Object.freeze({ ...result, cache: Object.freeze({ status: 'miss' as const }) });
    },
  } satisfies RouterPlugin);
}
