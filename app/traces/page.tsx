import type { Metadata } from 'next';
import { RecentRuns } from '@/components/traces/recent-runs';

export const metadata: Metadata = { title: 'Traces · Context Runtime' };

export default function TracesPage() {
  return <RecentRuns />;
}
