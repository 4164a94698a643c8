import { createHash } from 'node:crypto';

export const sha256Hex = (text: string): string => createHash('sha256').update(text).digest('hex');

/**
 * Deterministic ids: the same corpus ingested into two databases gets the same source, version
 * and chunk ids, so fingerprints, citations and plan-cache keys agree across machines.
 * 128 bits of a SHA-256 keeps collisions out of reach for any corpus this store will hold.
 */
export const sourceIdOf = (name: string): string => `src_${sha256Hex(`source|${name}`).slice(0, 24)}`;

export const versionIdOf = (sourceId: string, versionNo: number, contentHash: string): string =>
  `ver_${sha256Hex(`${sourceId}|${versionNo}|${contentHash}`).slice(0, 24)}`;

export const chunkIdOf = (versionId: string, uri: string, ordinal: number): string =>
  `chk_${sha256Hex(`${versionId}|${uri}|${ordinal}`).slice(0, 32)}`;
