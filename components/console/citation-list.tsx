import type { Citation } from '@/server/runtime/types';
import styles from './console.module.css';

interface CitationListProps {
  readonly citations: readonly Citation[];
  readonly onOpen: (citation: Citation) => void;
}

export function CitationList({ citations, onOpen }: CitationListProps) {
  if (citations.length === 0) return <p className="muted">No citations.</p>;
  return (
    <ol className="citation-list" data-testid="citations">
      {citations.map((citation) => (
        <li key={citation.ref} id={`citation-${citation.ref}`} value={citation.ref} data-testid={`citation-${citation.ref}`}>
          <div className={styles.citationHead}>
            <span>
              <span className="citation-source">{citation.sourceName}</span>
              {citation.locator ? <span className="citation-locator"> · {citation.locator}</span> : null}
            </span>
            <button type="button" className={styles.linkButton} data-testid="open-citation" onClick={() => onOpen(citation)}>
              Open chunk<span className={styles.visuallyHidden}> for citation {citation.ref}</span>
            </button>
          </div>
          <blockquote>{citation.quote}</blockquote>
        </li>
      ))}
    </ol>
  );
}
