import { dehydrate, HydrationBoundary } from '@tanstack/react-query';
import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { TraceView } from '@/components/traces/trace-view';
import { prefetchedNotFound, serverTRPC } from '@/server/api/server-prefetch';

interface TracePageProps {
  readonly params: Promise<{ readonly id: string }>;
}

export async function generateMetadata({ params }: TracePageProps): Promise<Metadata> {
  return { title: `Trace ${decodeURIComponent((await params).id)}` };
}

/** Prefetched as the signed-in caller (see server/api/server-prefetch.ts); an unknown run id is the not-found page. */
export default async function TracePage({ params }: TracePageProps) {
  const runId = decodeURIComponent((await params).id);
  const { queryClient, trpc } = serverTRPC();
  const options = trpc.traces.get.queryOptions({ runId });
  await queryClient.prefetchQuery(options);
  if (prefetchedNotFound(queryClient, options.queryKey)) notFound();
  return (
    <HydrationBoundary state={dehydrate(queryClient)}>
      <TraceView runId={runId} />
    </HydrationBoundary>
  );
}
