import type { Citation } from '@/server/runtime/types';

export function CitationList({ citations }: { readonly citations: readonly Citation[] }) {
  if (citations.length === 0) return <p className="muted">No citations.</p>;
  return (
    <ol className="citation-list" data-testid="citations">
      {citations.map((citation) => (
        <li key={citation.ref} id={`citation-${citation.ref}`} value={citation.ref} data-testid={`citation-${citation.ref}`}>
          <span className="citation-source">{citation.sourceName}</span>
          {citation.locator ? <span className="citation-locator"> · {citation.locator}</span> : null}
          <blockquote>{citation.quote}</blockquote>
        </li>
      ))}
    </ol>
  );
}
