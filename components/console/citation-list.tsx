import type { Citation } from '@/server/runtime/types';
import styles from './console.module.css';
import type { NumberedCitation } from './number-citations';

interface CitationListProps {
  readonly entries: readonly NumberedCitation[];
  readonly onOpen: (citation: Citation, number: number) => void;
}

/** Numbered as the answer's markers are (number-citations.ts): 1..n, one entry per cited chunk. */
export function CitationList({ entries, onOpen }: CitationListProps) {
  if (entries.length === 0) return <p className="muted">No citations.</p>;
  return (
    <ol className="citation-list" data-testid="citations" aria-label="Citations">
      {entries.map((entry) => (
        <li key={entry.ref} id={`citation-${entry.number}`} value={entry.number} data-testid={`citation-${entry.number}`}>
          <div className={styles.citationHead}>
            <span>
              <span className="citation-source">{entry.sourceName}</span>
              {entry.locator ? <span className="citation-locator"> · {entry.locator}</span> : null}
            </span>
            <button type="button" className={styles.linkButton} data-testid="open-citation" onClick={() => onOpen(entry.citation, entry.number)}>
              Open chunk<span className={styles.visuallyHidden}> for citation {entry.number}</span>
            </button>
          </div>
          {entry.quotes.map((quote) => (
            <blockquote key={quote}>{quote}</blockquote>
          ))}
        </li>
      ))}
    </ol>
  );
}
