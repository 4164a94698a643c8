import { NotFoundPanel } from '@/components/layout/not-found-panel';

// Shown when the page's server-side read of the trace answers NOT_FOUND (app/traces/[id]/page.tsx).
export default function TraceNotFound() {
  return (
    <NotFoundPanel title="Trace not found" list={{ href: '/traces', label: 'All traces' }}>
      No run has this id. It may have been mistyped, or the run was recorded in another data directory.
    </NotFoundPanel>
  );
}
