'use client';
/**
 * Only when the root layout itself fails (e.g. the header's user menu): this replaces the whole
 * document, so it brings its own <html>, <body>, title and styles.
 */
import { ErrorPanel } from '@/components/layout/error-panel';
import './globals.css';

export default function GlobalError({ error, retry }: { readonly error: unknown; readonly retry: () => void }) {
  return (
    <html lang="en">
      <body>
        <title>Something went wrong · Context Runtime</title>
        <main className="site-main">
          <ErrorPanel error={error} retry={retry} />
        </main>
      </body>
    </html>
  );
}
