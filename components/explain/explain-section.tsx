import { useId, type ReactNode } from 'react';

/** A region named by its heading, so each part of an EXPLAIN is a landmark a screen reader can jump to. */
export function ExplainSection({ title, children, note }: { readonly title: string; readonly children: ReactNode; readonly note?: ReactNode }) {
  const headingId = useId();
  return (
    <section className="explain-section" aria-labelledby={headingId}>
      <h3 id={headingId}>
        {title}
        {note ? <span className="section-note"> {note}</span> : null}
      </h3>
      {children}
    </section>
  );
}
