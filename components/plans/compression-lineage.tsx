'use client';
/**
 * A compressed context's lineage in the node detail panel (issue 15 point 7): the source versions
 * it was derived from (a new version of any makes a kept copy stale) and what the model never saw.
 */
import type { AnalyzedCompression } from '@/server/runtime/explain/explain-types';
import { formatTokens } from '@/components/explain/format';

export function CompressionLineage({ compression, headingId }: { readonly compression: AnalyzedCompression; readonly headingId: string }) {
  const removed = compression.omitted.reduce((sum, omission) => sum + omission.tokensRemoved, 0);
  return (
    <section aria-labelledby={headingId}>
      <h3 id={headingId}>Compressed context</h3>
      <p>
        {formatTokens(compression.tokensBefore)} → {formatTokens(compression.tokensAfter)} tokens
        {compression.servedFrom ? <> · served from kept copy <code>{compression.servedFrom}</code></> : compression.storedAs ? <> · kept as <code>{compression.storedAs}</code></> : null}
      </p>
      <h4>Derived from</h4>
      <ul aria-label="Derived from">
        {compression.derivedFrom.map((entry) => (
          <li key={`${entry.sourceName}@${entry.sourceVersionId}`}>
            {entry.sourceName} <code>{entry.sourceVersionId}</code> · {entry.chunks} chunk{entry.chunks === 1 ? '' : 's'}
          </li>
        ))}
      </ul>
      <p className="muted small">A new version of any of these sources makes a kept copy stale; it is compressed afresh.</p>
      <h4>Omitted ({formatTokens(removed)} tokens)</h4>
      <ul aria-label="Omitted">
        {compression.omitted.map((omission) => (
          <li key={omission.chunkId}>
            <code>{omission.chunkId}</code>: {omission.why} ({formatTokens(omission.tokensRemoved)} tokens)
          </li>
        ))}
      </ul>
    </section>
  );
}
