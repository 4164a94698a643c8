import type { Metadata } from 'next';
import { PlanExplorer } from '@/components/plans/plan-explorer';

export const metadata: Metadata = { title: 'Plan · Context Runtime' };

export default async function PlanPage({ params }: { readonly params: Promise<{ readonly id: string }> }) {
  const { id } = await params;
  return <PlanExplorer runId={decodeURIComponent(id)} />;
}
