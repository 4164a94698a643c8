import { Fragment, useMemo } from 'react';
import type { Citation } from '@/server/runtime/types';
import styles from './console.module.css';
import type { CitationNumbering } from './number-citations';
import { splitCitationMarkers } from './split-citation-markers';

interface AnswerTextProps {
  readonly answer: string;
  /** The reader's numbers (number-citations.ts); markers show these, not the runtime's context refs. */
  readonly numbering: CitationNumbering;
  /** Opens the cited chunk; markers without a matching citation stay plain text. */
  readonly onOpenCitation: (citation: Citation, number: number) => void;
}

export function AnswerText({ answer, numbering, onOpenCitation }: AnswerTextProps) {
  const byRef = useMemo(() => new Map(numbering.entries.map((entry) => [entry.ref, entry])), [numbering]);
  const known = useMemo(() => new Set(byRef.keys()), [byRef]);
  const segments = useMemo(() => splitCitationMarkers(answer, known), [answer, known]);
  return (
    // A named group so a screen reader (and a test) can find the answer's own words apart from its notices and citations.
    <div className="answer-text" role="group" aria-label="Answer text" data-testid="answer">
      {segments.map((segment, index) =>
        segment.kind === 'text' ? (
          <Fragment key={index}>{segment.text}</Fragment>
        ) : (
          <sup key={index} className="cite-marker" data-testid="cite-marker">
            [
            {segment.refs.map((ref, position) => {
              const entry = byRef.get(ref);
              return (
                <Fragment key={ref}>
                  {position > 0 ? ', ' : null}
                  {entry ? (
                    <button type="button" className={styles.citeButton} data-ref={entry.number} aria-label={`Open citation ${entry.number}: ${entry.sourceName}`} onClick={() => onOpenCitation(entry.citation, entry.number)}>
                      {entry.number}
                    </button>
                  ) : (
                    ref
                  )}
                </Fragment>
              );
            })}
            ]
          </sup>
        ),
      )}
    </div>
  );
}
