/**
 * Where a queued run's time goes on the workers (bench:workers): read back from the database after
 * a round. Each wave job of a run writes one `run` span (its execution on a worker); the rest of
 * the run's latency is waiting: for a free worker slot, for the job to be taken, and, after a kill,
 * for the dead worker's run to be handed back.
 */
import { sql } from 'drizzle-orm';
import type { Database } from '../db/client';

export interface PhaseTimings {
  /** Wave jobs per run (`run` spans). */
  readonly jobs: readonly number[];
  /** Seconds per run spent executing on a worker (sum of its `run` spans). */
  readonly executingS: readonly number[];
  /** Seconds per run not executing: latency minus the above. */
  readonly waitingS: readonly number[];
  /** Milliseconds per job from its wave's end (the previous `run` span) to the next one's start. */
  readonly betweenJobsMs: readonly number[];
}

const percentile = (values: readonly number[], share: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil(share * sorted.length) - 1)] : NaN;
};

export async function phaseTimings(database: Database, runIds: readonly string[]): Promise<PhaseTimings> {
  if (runIds.length === 0) return { jobs: [], executingS: [], waitingS: [], betweenJobsMs: [] };
  const ids = `{${runIds.join(',')}}`;
  const rows = await database.query<{ run_id: string; started: Date | string; ended: Date | string; created: Date | string; updated: Date | string }>(
    sql`select s.run_id, s.started_at as started, s.ended_at as ended, r.created_at as created, r.updated_at as updated
      from spans s join runs r on r.id = s.run_id
      where s.run_id = any(${ids}::text[]) and s.name = 'run' order by s.run_id, s.started_at`,
  );
  const byRun = new Map<string, { started: number; ended: number }[]>();
  const latency = new Map<string, number>();
  for (const row of rows) {
    const spans = byRun.get(row.run_id) ?? [];
    spans.push({ started: new Date(row.started).getTime(), ended: new Date(row.ended).getTime() });
    byRun.set(row.run_id, spans);
    latency.set(row.run_id, (new Date(row.updated).getTime() - new Date(row.created).getTime()) / 1000);
  }
  const jobs: number[] = [];
  const executingS: number[] = [];
  const waitingS: number[] = [];
  const betweenJobsMs: number[] = [];
  for (const [runId, spans] of byRun) {
    const executing = spans.reduce((sum, span) => sum + (span.ended - span.started), 0) / 1000;
    jobs.push(spans.length);
    executingS.push(executing);
    waitingS.push(Math.max(0, (latency.get(runId) ?? 0) - executing));
    for (let index = 1; index < spans.length; index++) betweenJobsMs.push(spans[index].started - spans[index - 1].ended);
  }
  return { jobs, executingS, waitingS, betweenJobsMs };
}

export function describePhases(timings: PhaseTimings): string {
  const summary = (values: readonly number[], digits: number) => `p50 ${percentile(values, 0.5).toFixed(digits)}, p99 ${percentile(values, 0.99).toFixed(digits)}`;
  return `per run: wave jobs ${summary(timings.jobs, 0)}; executing on a worker ${summary(timings.executingS, 2)} s; waiting ${summary(timings.waitingS, 2)} s; from one wave's end to the next one's start ${summary(timings.betweenJobsMs, 0)} ms`;
}
