import { Fragment, useMemo } from 'react';
import type { Citation } from '@/server/runtime/types';
import { splitCitationMarkers } from './split-citation-markers';

interface AnswerTextProps {
  readonly answer: string;
  readonly citations: readonly Citation[];
}

export function AnswerText({ answer, citations }: AnswerTextProps) {
  const known = useMemo(() => new Set(citations.map((citation) => citation.ref)), [citations]);
  const segments = useMemo(() => splitCitationMarkers(answer, known), [answer, known]);
  return (
    <div className="answer-text" data-testid="answer">
      {segments.map((segment, index) =>
        segment.kind === 'text' ? (
          <Fragment key={index}>{segment.text}</Fragment>
        ) : (
          <sup key={index} className="cite-marker" data-testid="cite-marker">
            [
            {segment.refs.map((ref, position) => (
              <Fragment key={ref}>
                {position > 0 ? ', ' : null}
                {known.has(ref) ? <a href={`#citation-${ref}`}>{ref}</a> : ref}
              </Fragment>
            ))}
            ]
          </sup>
        ),
      )}
    </div>
  );
}
