'use client';

import { useQuery } from '@tanstack/react-query';
import { ErrorMessage } from '@/components/console/error-message';
import { useTRPC } from '@/components/providers/trpc-provider';
import { PlanCacheHitRate } from './plan-cache-hit-rate';

/** Plan-cache hit rate over the last day in hourly buckets (procedure planCache.stats). */
export function PlanCachePanel() {
  const trpc = useTRPC();
  const stats = useQuery(trpc.planCache.stats.queryOptions({ sinceMinutes: 24 * 60, bucketMinutes: 60 }));
  const totals = stats.data?.totals;
  return (
    <section className="panel" aria-labelledby="plan-cache-heading" data-testid="plan-cache-section">
      <h2 id="plan-cache-heading">Plan cache</h2>
      {stats.error ? <ErrorMessage error={stats.error} /> : null}
      {stats.isPending ? <p className="muted">Loading plan-cache statistics…</p> : null}
      {stats.data && totals ? (
        <>
          <p className="muted">
            Last 24 h: {totals.hits} hits of {totals.lookups} lookups ({(totals.hitRate * 100).toFixed(0)}%), {totals.nearMisses} near misses; {stats.data.entries.live} live plans, similarity threshold{' '}
            {stats.data.threshold}.
          </p>
          <PlanCacheHitRate buckets={stats.data.buckets.filter((bucket) => bucket.lookups > 0)} />
        </>
      ) : null}
    </section>
  );
}
