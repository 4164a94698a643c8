import type { EmbedderPlugin, EmbedOptions } from '../../runtime/contracts/embedder';
import { redactSensitive } from '../../runtime/policy/sensitive-content-detector';

const isLocal = (embedder: EmbedderPlugin): boolean => (embedder as { readonly local?: boolean }).local === true;

/**
 * The last line before a non-local embedder: every text it is sent (chunks at ingest, goals at
 * query time) with personal data and secrets replaced by their kind. Chunks marked sensitive at
 * ingest do not get this far under policy local_only (embed-pending.ts leaves them out); this
 * catches a goal's spans and anything the marking missed. A local embedder is returned unwrapped.
 */
export function guardSensitiveEmbedder<Embedder extends EmbedderPlugin>(embedder: Embedder): Embedder {
  if (isLocal(embedder)) return embedder;
  const embed = (texts: readonly string[], options?: EmbedOptions) => embedder.embed(texts.map(redactSensitive), options);
  return new Proxy(embedder, { get: (target, property, receiver) => (property === 'embed' ? embed : Reflect.get(target, property, receiver)) });
}
