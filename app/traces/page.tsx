import type { Metadata } from 'next';
import { TraceList } from '@/components/traces/trace-list';

export const metadata: Metadata = { title: 'Traces' };

export default function TracesPage() {
  return <TraceList />;
}
