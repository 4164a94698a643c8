'use client';
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { useTRPC } from '@/components/providers/trpc-provider';
import { buildNodeViews } from './plan-metrics';

/** A stored run with its plan, shaped for the explorer (node views computed once per fetch). */
export function usePlanRun(runId: string) {
  const trpc = useTRPC();
  const query = useQuery({ ...trpc.runtime.getRun.queryOptions({ runId }), enabled: runId.length > 0 });
  const shaped = useMemo(() => {
    if (!query.data) return undefined;
    const { run, spans } = query.data;
    const models = [...new Set(spans.filter((span) => span.category === 'model').map((span) => String(span.attributes.modelId ?? span.name.replace(/^model\./, ''))))];
    return { run, spans, ...buildNodeViews(run.explain.graph, run.explain.analyze, models) };
  }, [query.data]);
  return { query, shaped };
}
