import type { Metadata } from 'next';
import { PlanCompare } from '@/components/plans/plan-compare';

export const metadata: Metadata = { title: 'Compare plans' };

const first = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value) ?? '';

export default async function ComparePlansPage({ searchParams }: { readonly searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const query = await searchParams;
  return <PlanCompare a={first(query.a)} b={first(query.b)} />;
}
