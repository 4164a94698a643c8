/**
 * Wires the model-context cache into a runtime: the store's source-change hook drops the entries a
 * changed source fed (like the source-read cache's, knowledge/source-read-cache.ts), and with
 * config model_cache.enabled the cache the planner and the reason nodes use is built.
 */
import type { RuntimeConfig } from '../config/config-schema';
import type { RuntimePlugins } from '../facade/runtime-plugins';
import { ModelContextCache } from './model-context-cache';

export function wireModelCache(plugins: RuntimePlugins, config: RuntimeConfig): ModelContextCache | undefined {
  const store = plugins.modelCacheStore;
  if (!store) return undefined;
  // Cache on or off: entries kept while it was on must not outlive their source when it is turned on again.
  plugins.store.onSourceChanged?.(async (name) => {
    await store.invalidateSource(name);
  });
  return config.model_cache.enabled ? new ModelContextCache(store, { ttlSeconds: config.model_cache.ttl_seconds }) : undefined;
}
