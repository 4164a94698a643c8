'use client';
/**
 * What a page shows when rendering it failed (app/error.tsx, app/global-error.tsx): a plain
 * sentence and a way to try again, never the error's text or stack. A server component's error
 * reaches the browser as a generic message plus a digest; the digest is what matches the server
 * log, so it is logged here and shown as a reference the user can quote.
 */
import Link from 'next/link';
import { useEffect } from 'react';

export interface ErrorPanelProps {
  readonly error: unknown;
  /** Next's `retry`: re-fetches the segment's server content and re-renders it (`reset` alone would not re-fetch). */
  readonly retry: () => void;
}

function digestOf(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null || !('digest' in error)) return undefined;
  return typeof error.digest === 'string' ? error.digest : undefined;
}

export function ErrorPanel({ error, retry }: ErrorPanelProps) {
  const digest = digestOf(error);
  useEffect(() => {
    // Browser console only: a server error's digest matches its server-log line; a client error is logged whole for developers.
    if (digest) console.error(`[page] rendering failed; server log reference ${digest}`);
    else console.error('[page] rendering failed:', error);
  }, [digest, error]);
  return (
    <section className="panel" aria-labelledby="error-title">
      <h1 id="error-title">Something went wrong</h1>
      <div className="error-message" role="alert">
        <p>This page could not be shown. Trying again often helps; if it keeps failing, the server log has the details.</p>
        {digest ? <p className="muted">Reference: {digest}</p> : null}
      </div>
      <p>
        <button type="button" className="primary" onClick={() => retry()}>
          Try again
        </button>{' '}
        <Link href="/">Back to the console</Link>
      </p>
    </section>
  );
}
