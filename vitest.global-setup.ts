/**
 * Builds the offline word-vector cache once before the test files run: every file that opens the
 * runtime embeds the corpus, and without this each worker would convert the 307 MB JSON itself.
 */
import { serverEnv } from './server/config/env';
import { defaultCachePath, openWordVectors } from './server/adapters/embeddings/word-vectors';

export default async function setup(): Promise<void> {
  await openWordVectors({ cachePath: defaultCachePath(serverEnv().embeddingsCache) });
}
