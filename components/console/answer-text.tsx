import { Fragment, useMemo } from 'react';
import type { Citation } from '@/server/runtime/types';
import styles from './console.module.css';
import { splitCitationMarkers } from './split-citation-markers';

interface AnswerTextProps {
  readonly answer: string;
  readonly citations: readonly Citation[];
  /** Opens the cited chunk; markers without a matching citation stay plain text. */
  readonly onOpenCitation: (citation: Citation) => void;
}

export function AnswerText({ answer, citations, onOpenCitation }: AnswerTextProps) {
  const byRef = useMemo(() => new Map(citations.map((citation) => [citation.ref, citation])), [citations]);
  const known = useMemo(() => new Set(byRef.keys()), [byRef]);
  const segments = useMemo(() => splitCitationMarkers(answer, known), [answer, known]);
  return (
    <div className="answer-text" data-testid="answer">
      {segments.map((segment, index) =>
        segment.kind === 'text' ? (
          <Fragment key={index}>{segment.text}</Fragment>
        ) : (
          <sup key={index} className="cite-marker" data-testid="cite-marker">
            [
            {segment.refs.map((ref, position) => {
              const citation = byRef.get(ref);
              return (
                <Fragment key={ref}>
                  {position > 0 ? ', ' : null}
                  {citation ? (
                    <button type="button" className={styles.citeButton} data-ref={ref} aria-label={`Open citation ${ref}: ${citation.sourceName}`} onClick={() => onOpenCitation(citation)}>
                      {ref}
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
