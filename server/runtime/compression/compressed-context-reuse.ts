/**
 * Serves a compress node from the compressed-context store when the same compression of the same
 * chunks for the same goal is kept and still current, and keeps each new lossy compression there
 * with its lineage. The store (contracts/compression.ts) honours the refresh trigger, so a context
 * derived from a superseded source version is never served. A store failure costs the reuse, never
 * the run: the compression is computed as if there were no store.
 */
import { createHash } from 'node:crypto';
import type { CompressedContextStore, CompressionLineage, CompressionResult } from '../contracts/compression';
import type { CompressedOutput } from '../ir/node-outputs';
import type { CompressionMethod, ContextItem } from '../types';

/** The same method, goal and chunks (in rank order) give the same key; a new source version gives new chunk ids. */
export function compressionKey(method: CompressionMethod, goal: string, items: readonly ContextItem[]): string {
  const text = [method, goal.trim().replace(/\s+/g, ' '), ...items.map((item) => item.hit.chunkId)].join('\n');
  return createHash('sha256').update(text).digest('hex').slice(0, 32);
}

/** The stored compression over this node's input, the input's hits reattached; undefined when none is kept, current and whole. */
export async function servedCompression(store: CompressedContextStore, key: string, items: readonly ContextItem[]): Promise<CompressedOutput | undefined> {
  const found = await store.find(key).catch(() => undefined);
  if (!found) return undefined;
  const byChunk = new Map(found.stored.items.map((kept) => [kept.chunkId, kept]));
  if (items.some((item) => !byChunk.has(item.hit.chunkId))) return undefined;
  return {
    items: items.map((item) => ({ ...item, ...byChunk.get(item.hit.chunkId)! })).map(({ chunkId: _chunkId, ...item }) => item),
    tokensBefore: found.stored.tokensBefore,
    tokensAfter: found.stored.tokensAfter,
    omitted: found.stored.omitted,
    lineage: found.stored.lineage,
    servedFrom: found.nodeId,
  };
}

/** Keeps a lossy compression (one that cut something) for reuse; returns the node id, or undefined when nothing was kept. */
export async function keepCompression(store: CompressedContextStore, key: string, goal: string, result: CompressionResult, lineage: CompressionLineage): Promise<string | undefined> {
  if (result.omitted.length === 0) return undefined;
  const stored = {
    items: result.items.map((item) => ({ chunkId: item.hit.chunkId, text: item.text, tokens: item.tokens, compressed: item.compressed })),
    omitted: result.omitted,
    tokensBefore: result.tokensBefore,
    tokensAfter: result.tokensAfter,
    lineage,
  };
  return store.record(key, goal, stored).catch(() => undefined);
}
