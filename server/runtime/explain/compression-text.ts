/**
 * A compress node's cuts and lineage for EXPLAIN ANALYZE (issue 15 point 7): what the model never
 * saw (sentences and tokens per chunk) and which source versions the compressed context was derived
 * from — a newer version of any of them is what makes a kept compressed context stale.
 */
import type { CompressedOutput } from '../ir/node-outputs';
import type { AnalyzedCompression } from './explain-types';

/** Undefined for a compression that cut nothing: EXPLAIN stays as it was for such runs. */
export function analyzedCompression(output: CompressedOutput): AnalyzedCompression | undefined {
  // Stored runs from before lineage existed may lack fields; they show no compression note.
  if (!Array.isArray(output.omitted) || output.omitted.length === 0) return undefined;
  const versions = new Map<string, { sourceName: string; sourceVersionId: string; chunks: number }>();
  for (const entry of output.lineage?.derivedFrom ?? []) {
    const key = `${entry.sourceName}@${entry.sourceVersionId}`;
    const known = versions.get(key) ?? { sourceName: entry.sourceName, sourceVersionId: entry.sourceVersionId, chunks: 0 };
    versions.set(key, { ...known, chunks: known.chunks + 1 });
  }
  return {
    tokensBefore: output.tokensBefore,
    tokensAfter: output.tokensAfter,
    omitted: output.omitted.map((omission) => ({ chunkId: omission.chunkId, tokensRemoved: omission.tokensRemoved, why: omission.why, ...(omission.sentences ? { sentences: omission.sentences.length } : {}) })),
    derivedFrom: [...versions.values()],
    ...(output.servedFrom ? { servedFrom: output.servedFrom } : {}),
    ...(output.storedAs ? { storedAs: output.storedAs } : {}),
  };
}

export function compressionText(compression: AnalyzedCompression): string {
  const sentences = compression.omitted.reduce((sum, omission) => sum + (omission.sentences ?? 0), 0);
  const removed = compression.omitted.reduce((sum, omission) => sum + omission.tokensRemoved, 0);
  const what = sentences > 0 ? `${sentences} sentences` : 'text';
  const from = compression.derivedFrom.map((entry) => `${entry.sourceName}@${entry.sourceVersionId} (${entry.chunks} chunks)`).join(', ');
  const kept = compression.servedFrom ? `; served from ${compression.servedFrom}` : compression.storedAs ? `; kept as ${compression.storedAs}` : '';
  return `[compressed ${compression.tokensBefore} → ${compression.tokensAfter} tokens: omitted ${what} from ${compression.omitted.length} chunks (${removed} tokens); derived from ${from || '(unknown)'}; stale when any of these sources gets a new version${kept}]`;
}
