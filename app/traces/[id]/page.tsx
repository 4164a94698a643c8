import type { Metadata } from 'next';
import { TraceView } from '@/components/traces/trace-view';

export const metadata: Metadata = { title: 'Trace · Context Runtime' };

export default async function TracePage({ params }: { readonly params: Promise<{ readonly id: string }> }) {
  const { id } = await params;
  return <TraceView runId={decodeURIComponent(id)} />;
}
