import type { Metadata } from 'next';
import { PlanIndex } from '@/components/plans/plan-index';

export const metadata: Metadata = { title: 'Plans' };

export default function PlansPage() {
  return <PlanIndex />;
}
