/**
 * The model-context cache key: one hash over everything that decides a model's answer — the model
 * (provider and id, not the tier's name: two tiers on one model share answers), the exact messages,
 * the parameters, and the versions of the sources whose passages the prompt holds. The source set
 * is in the key, not only in the entry, so a prompt built from a newer version can never meet an
 * answer made from an older one, even before the invalidation hook has run.
 */
import type { CachedSourceVersion } from '../contracts/model-cache';
import type { ModelMessage } from '../contracts/model';
import { sha256Hex } from '../ir/plan-hash';
import { canonicalJson } from '../ir/serialize-graph';

/** Bumped when what a key covers changes: entries written under older keys are never matched. */
export const MODEL_CACHE_KEY_VERSION = 'model-cache-key/v1';

export interface ModelCallIdentity {
  readonly provider: string;
  readonly modelId: string;
  readonly messages: readonly ModelMessage[];
  /** The output cap the model was given: a shorter cap may cut the answer. */
  readonly maxOutputTokens: number;
  /** Kept local by policy: a call that may not climb to a remote tier is not the same request. */
  readonly localOnly: boolean;
  readonly sources: readonly CachedSourceVersion[];
}

/** Source versions sorted and deduplicated: the order passages were cited in does not matter. */
export function canonicalSources(sources: readonly CachedSourceVersion[]): readonly CachedSourceVersion[] {
  const unique = new Map(sources.map((source) => [`${source.name}\u0000${source.versionId}`, source]));
  return [...unique.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, source]) => Object.freeze({ name: source.name, versionId: source.versionId }));
}

export function modelCacheKey(identity: ModelCallIdentity): string {
  return sha256Hex(
    canonicalJson({
      version: MODEL_CACHE_KEY_VERSION,
      model: `${identity.provider}/${identity.modelId}`,
      messages: identity.messages.map((message) => ({ role: message.role, content: message.content })),
      parameters: { maxOutputTokens: identity.maxOutputTokens, localOnly: identity.localOnly },
      sources: canonicalSources(identity.sources),
    }),
  );
}
