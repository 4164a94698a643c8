import { dehydrate, HydrationBoundary } from '@tanstack/react-query';
import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { PlanExplorer } from '@/components/plans/plan-explorer';
import { prefetchedNotFound, serverTRPC } from '@/server/api/server-prefetch';

interface PlanPageProps {
  readonly params: Promise<{ readonly id: string }>;
}

export async function generateMetadata({ params }: PlanPageProps): Promise<Metadata> {
  return { title: `Plan ${decodeURIComponent((await params).id)}` };
}

/**
 * The run is read on the server, as the signed-in caller, while the page renders; the explorer
 * starts drawing as soon as it hydrates. An unknown run id is the not-found page, not an error box.
 */
export default async function PlanPage({ params }: PlanPageProps) {
  const runId = decodeURIComponent((await params).id);
  const { queryClient, trpc } = serverTRPC();
  const options = trpc.runtime.getRun.queryOptions({ runId });
  await queryClient.prefetchQuery(options);
  if (prefetchedNotFound(queryClient, options.queryKey)) notFound();
  return (
    <HydrationBoundary state={dehydrate(queryClient)}>
      <PlanExplorer runId={runId} />
    </HydrationBoundary>
  );
}
