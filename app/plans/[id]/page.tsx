import type { Metadata } from 'next';
import { PlanExplorer } from '@/components/plans/plan-explorer';
import { prefetchRun } from '../prefetch-run';

export const metadata: Metadata = { title: 'Plan · Context Runtime' };

export default async function PlanPage({ params }: { readonly params: Promise<{ readonly id: string }> }) {
  const runId = decodeURIComponent((await params).id);
  return <PlanExplorer runId={runId} initial={await prefetchRun(runId)} />;
}
