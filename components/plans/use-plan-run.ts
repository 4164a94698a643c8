'use client';
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { useTRPC } from '@/components/providers/trpc-provider';
import type { Span } from '@/server/runtime/contracts/trace-sink';
import type { RunResult } from '@/server/runtime/explain/explain-types';
import { buildNodeViews } from './plan-metrics';

export interface StoredRun {
  readonly run: RunResult;
  readonly spans: readonly Span[];
}

/** A stored run with its plan, shaped for the explorer (node views computed once per fetch). `initial` is a server-side read of the same query. */
export function usePlanRun(runId: string, initial?: StoredRun) {
  const trpc = useTRPC();
  const query = useQuery({ ...trpc.runtime.getRun.queryOptions({ runId }), enabled: runId.length > 0, initialData: initial });
  const shaped = useMemo(() => {
    if (!query.data) return undefined;
    const { run, spans } = query.data;
    const models = [...new Set(spans.filter((span) => span.category === 'model').map((span) => String(span.attributes.modelId ?? span.name.replace(/^model\./, ''))))];
    return { run, spans, ...buildNodeViews(run.explain.graph, run.explain.analyze, models) };
  }, [query.data]);
  return { query, shaped };
}
