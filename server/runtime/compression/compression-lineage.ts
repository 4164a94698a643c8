/**
 * The lineage every compressed context carries (contracts/compression.ts CompressionLineage):
 * derived from the chunks it was given, refreshed when any of their sources gets a new version.
 * Built by the compress node from its input, so every compressor — built in or a plugin — gets it.
 */
import type { CompressionLineage } from '../contracts/compression';
import type { CompressionMethod, ContextItem } from '../types';

export function compressionLineage(method: CompressionMethod, items: readonly ContextItem[]): CompressionLineage {
  const versions = new Map<string, string>();
  for (const item of items) versions.set(`${item.hit.sourceName}\u0000${item.hit.sourceVersionId}`, item.hit.sourceName);
  return {
    method,
    derivedFrom: items.map((item) => ({ chunkId: item.hit.chunkId, sourceName: item.hit.sourceName, sourceVersionId: item.hit.sourceVersionId, tokens: item.tokens })),
    refreshOn: [...versions.entries()].map(([key, sourceName]) => ({ sourceName, sourceVersionId: key.slice(sourceName.length + 1) })).sort((a, b) => a.sourceName.localeCompare(b.sourceName) || a.sourceVersionId.localeCompare(b.sourceVersionId)),
  };
}

/** True when a source the lineage read has moved past the version it read: the compressed context is stale. */
export function lineageIsStale(lineage: CompressionLineage, currentVersionOf: (sourceName: string) => string | undefined): boolean {
  return lineage.refreshOn.some((entry) => {
    const current = currentVersionOf(entry.sourceName);
    return current !== undefined && current !== entry.sourceVersionId;
  });
}
