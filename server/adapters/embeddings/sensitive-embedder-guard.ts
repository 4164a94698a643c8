import type { EmbedderPlugin } from '../../runtime/contracts/embedder';
import { redactSensitive } from '../../runtime/policy/sensitive-content-detector';

const isLocal = (embedder: EmbedderPlugin): boolean => (embedder as { readonly local?: boolean }).local === true;

/**
 * A non-local embedder sees every text with its personal data and secrets replaced by their kind
 * (chunks at ingest and goals at query time alike). Redacting instead of holding the chunk back
 * keeps it searchable by meaning; the spans themselves never leave the machine. A local embedder
 * is returned unwrapped.
 */
export function guardSensitiveEmbedder<Embedder extends EmbedderPlugin>(embedder: Embedder): Embedder {
  if (isLocal(embedder)) return embedder;
  const embed = (texts: readonly string[]) => embedder.embed(texts.map(redactSensitive));
  return new Proxy(embedder, { get: (target, property, receiver) => (property === 'embed' ? embed : Reflect.get(target, property, receiver)) });
}
