'use client';
// A page that fails to render shows this inside the site's layout (header and navigation stay usable).
import { ErrorPanel } from '@/components/layout/error-panel';

export default function RouteError({ error, retry }: { readonly error: unknown; readonly retry: () => void }) {
  return <ErrorPanel error={error} retry={retry} />;
}
