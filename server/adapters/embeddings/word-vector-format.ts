/**
 * The word-vector cache layout (little-endian):
 *
 *   0  magic "CRWVEC01" (8 bytes)      8  u32 format version     12 u32 dimensions
 *   16 u32 word count                  20 u32 vocabulary bytes   24 u32 source JSON bytes
 *   28 u32 encoding (1 = Int8 rows, one Float32 scale per row)
 *   32 vocabulary: the words joined by "\n" as UTF-8, zero-padded to a multiple of 4
 *   …  Float32 scale[count], then Int8 row[count × dimensions]
 *
 * Row i is the word of GloVe frequency rank i. Loading is one read plus typed-array views; the
 * source size in the header tells a cache built from another package version to rebuild.
 */
export const CACHE_MAGIC = 'CRWVEC01';
export const CACHE_FORMAT_VERSION = 1;
export const CACHE_ENCODING_INT8 = 1;
export const CACHE_HEADER_BYTES = 32;

export const paddedTo4 = (length: number): number => Math.ceil(length / 4) * 4;

export interface CacheHeader {
  readonly dimensions: number;
  readonly count: number;
  readonly vocabularyBytes: number;
  readonly sourceBytes: number;
}

/** The header when `bytes` start a cache of this format version whose file is `fileBytes` long, else undefined. */
export function readCacheHeader(bytes: Buffer, fileBytes: number): CacheHeader | undefined {
  if (bytes.length < CACHE_HEADER_BYTES || bytes.toString('latin1', 0, 8) !== CACHE_MAGIC) return undefined;
  if (bytes.readUInt32LE(8) !== CACHE_FORMAT_VERSION || bytes.readUInt32LE(28) !== CACHE_ENCODING_INT8) return undefined;
  const header = {
    dimensions: bytes.readUInt32LE(12),
    count: bytes.readUInt32LE(16),
    vocabularyBytes: bytes.readUInt32LE(20),
    sourceBytes: bytes.readUInt32LE(24),
  };
  const expected = CACHE_HEADER_BYTES + paddedTo4(header.vocabularyBytes) + header.count * 4 + header.count * header.dimensions;
  return fileBytes === expected ? Object.freeze(header) : undefined;
}
