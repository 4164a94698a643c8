/**
 * Where the planner path's time goes (issue 16 point 5): per query, the whole path (plan() and the
 * plan's retrieval nodes), plan() alone with its stage timings, and the time spent inside the
 * chosen retrievers' own search calls. Overhead = path − retriever search: what planning and the
 * node executor add over the retriever the plan chose. The work plan() leaves behind the request
 * (plan-cache write, near-miss diagnosis) is flushed after each query and reported apart, as
 * bench:plan-overhead does: it runs between requests, not on the path.
 */
import type { RetrieverPlugin } from '../../server/runtime/contracts/retriever';
import { percentile } from './metrics';

export interface PlannerQueryTiming {
  readonly pathMs: number;
  readonly planMs: number;
  /** Time inside the retrievers' search calls the plan's retrieve nodes made. */
  readonly retrieverMs: number;
  /** The work plan() queued behind the request, flushed after the query (not part of the path). */
  readonly behindMs: number;
  /** plan()'s own stage timings (PlannedRequest.timings). */
  readonly stages: Readonly<Record<string, number>>;
}

/** Collects the planner path's timings of one pass. */
export class PlannerOverhead {
  private readonly queries: PlannerQueryTiming[] = [];
  private skipped = 0;

  /** `skipFirst`: warm-up queries to leave out (runQueries runs 5 untimed first through the same runner). */
  constructor(private readonly skipFirst = 0) {}

  record(timing: PlannerQueryTiming): void {
    if (this.skipped < this.skipFirst) this.skipped++;
    else this.queries.push(timing);
  }

  get count(): number {
    return this.queries.length;
  }

  /** p50 of each figure, stage timings included (ms). */
  p50(): { readonly path: number; readonly plan: number; readonly retriever: number; readonly overhead: number; readonly behind: number; readonly stages: Readonly<Record<string, number>> } {
    const p50 = (values: readonly number[]) => percentile([...values].sort((left, right) => left - right), 50);
    const stageNames = [...new Set(this.queries.flatMap((query) => Object.keys(query.stages)))];
    return {
      path: p50(this.queries.map((query) => query.pathMs)),
      plan: p50(this.queries.map((query) => query.planMs)),
      retriever: p50(this.queries.map((query) => query.retrieverMs)),
      overhead: p50(this.queries.map((query) => query.pathMs - query.retrieverMs)),
      behind: p50(this.queries.map((query) => query.behindMs)),
      stages: Object.fromEntries(stageNames.map((name) => [name, p50(this.queries.map((query) => query.stages[name] ?? 0))])),
    };
  }

  /** One line for the bench's log: the figures side by side, then plan()'s stages. */
  summary(): string {
    if (this.queries.length === 0) return 'planner path: no query timed';
    const figures = this.p50();
    const stages = Object.entries(figures.stages).map(([name, ms]) => `${name} ${ms.toFixed(2)}`).join(', ');
    return [
      `planner path p50 over ${this.queries.length} queries: path ${figures.path.toFixed(2)} ms | chosen retrievers' own search ${figures.retriever.toFixed(2)} ms | overhead (path − search) ${figures.overhead.toFixed(2)} ms (target <= 3) | plan() ${figures.plan.toFixed(2)} ms | work behind the request (flushed off the path) ${figures.behind.toFixed(2)} ms`,
      `  plan() stages p50 (ms): ${stages}`,
    ].join('\n');
  }
}

/** The retrievers, each search call timed into `spent.ms`: what the plan's retrieve nodes spent in them. */
export function timedRetrievers(retrievers: readonly RetrieverPlugin[], spent: { ms: number }): Map<string, RetrieverPlugin> {
  return new Map(
    retrievers.map((retriever) => [
      retriever.method,
      {
        contract: retriever.contract,
        method: retriever.method,
        capabilities: () => retriever.capabilities(),
        search: async (query) => {
          const started = performance.now();
          try {
            return await retriever.search(query);
          } finally {
            spent.ms += performance.now() - started;
          }
        },
      } satisfies RetrieverPlugin,
    ]),
  );
}
