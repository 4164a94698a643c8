import type { ReactNode } from 'react';

export function ExplainSection({ title, children, note }: { readonly title: string; readonly children: ReactNode; readonly note?: ReactNode }) {
  return (
    <section className="explain-section">
      <h3>
        {title}
        {note ? <span className="section-note"> {note}</span> : null}
      </h3>
      {children}
    </section>
  );
}
