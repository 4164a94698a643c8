import { NotFoundPanel } from '@/components/layout/not-found-panel';

// Shown when the page's server-side read of the run answers NOT_FOUND (app/plans/[id]/page.tsx).
export default function PlanNotFound() {
  return (
    <NotFoundPanel title="Plan not found" list={{ href: '/plans', label: 'All plans' }}>
      No run has this id. It may have been mistyped, or the run was recorded in another data directory.
    </NotFoundPanel>
  );
}
