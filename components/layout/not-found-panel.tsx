/**
 * The body of every not-found page (app/not-found.tsx and the per-route ones): what was not found,
 * in the user's words, and where to go instead. The console is always one link away.
 */
import Link from 'next/link';
import type { ReactNode } from 'react';

export interface NotFoundPanelProps {
  readonly title: string;
  readonly children: ReactNode;
  /** A nearer way back than the console, e.g. the list the missing item would be in. */
  readonly list?: { readonly href: string; readonly label: string };
}

export function NotFoundPanel({ title, children, list }: NotFoundPanelProps) {
  return (
    <section className="panel" aria-labelledby="not-found-title">
      <h1 id="not-found-title">{title}</h1>
      <p>{children}</p>
      <nav aria-label="Ways back">
        <p>
          {list ? (
            <>
              <Link href={list.href}>{list.label}</Link>
              {' · '}
            </>
          ) : null}
          <Link href="/">Back to the console</Link>
        </p>
      </nav>
    </section>
  );
}
