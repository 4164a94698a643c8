import { sql } from 'drizzle-orm';
import type { Database } from '../../../db/client';
import { RETENTION_CONTRACT, type RetentionPlugin, type RetentionPolicy, type RetentionReport } from '../../runtime/contracts/retention';

/**
 * Deletes runs, spans and cost observations older than the policy's ages, in short statements
 * (DELETE_BATCH_ROWS each, the event loop turning between two) so a sweep over a year of runs
 * does not hold PGlite's one connection while someone signs in.
 *
 * A run is old by its last change (updated_at: when it finished), and only a settled run goes:
 * one running or waiting at an approval gate is kept whatever its age. So is a run the approval
 * audit log names: that log is append-only (a trigger refuses DELETE) and its rows point at runs.
 * A deleted run takes its node outcomes (ON DELETE CASCADE), spans and feedback with it.
 */

const DELETE_BATCH_ROWS = 1000;
const SETTLED = sql`('completed', 'unverified', 'rejected', 'failed', 'cancelled')`;
const ACTIVE = sql`('running', 'awaiting_approval', 'queued')`;

const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
const daysBefore = (now: Date, days: number): Date => new Date(now.getTime() - days * 86_400_000);

export class PgRetention implements RetentionPlugin {
  readonly contract = RETENTION_CONTRACT;

  constructor(private readonly database: Database) {}

  async apply(policy: RetentionPolicy, now = new Date()): Promise<RetentionReport> {
    let deletedRuns = 0;
    let deletedSpans = 0;
    let keptRuns = 0;
    if (policy.runsDays !== null) {
      const cutoff = daysBefore(now, policy.runsDays);
      deletedRuns = await this.repeat(sql`
        with doomed as (
          select id from runs
          where updated_at < ${cutoff} and status in ${SETTLED}
            and not exists (select 1 from approval_audit where approval_audit.run_id = runs.id)
          limit ${DELETE_BATCH_ROWS}
        ), gone_spans as (delete from spans where run_id in (select id from doomed)),
        gone_feedback as (delete from run_feedback where run_id in (select id from doomed)),
        gone as (delete from runs where id in (select id from doomed) returning 1)
        select count(*)::int as count from gone`);
      // Plan bodies (run-plan-body.ts) no run points at any more: a body outlives only the runs that shared it.
      await this.repeat(sql`
        with gone as (
          delete from run_plan_bodies where hash in (
            select hash from run_plan_bodies b where not exists (select 1 from runs where runs.plan_body_hash = b.hash) limit ${DELETE_BATCH_ROWS})
          returning 1)
        select count(*)::int as count from gone`);
      const [kept] = await this.database.query<{ count: number }>(sql`select count(*)::int as count from runs where updated_at < ${cutoff}`);
      keptRuns = Number(kept?.count ?? 0);
    }
    if (policy.spansDays !== null) {
      const cutoff = daysBefore(now, policy.spansDays);
      // A waiting or running run still shows its trace; its spans go once it settles and ages out.
      deletedSpans += await this.repeat(sql`
        with gone as (
          delete from spans where id in (
            select id from spans where ended_at < ${cutoff}
              and not exists (select 1 from runs where runs.id = spans.run_id and runs.status in ${ACTIVE})
            limit ${DELETE_BATCH_ROWS})
          returning 1)
        select count(*)::int as count from gone`);
    }
    const deletedObservations =
      policy.observationsDays === null
        ? 0
        : await this.repeat(sql`
            with gone as (
              delete from cost_observations where id in (select id from cost_observations where observed_at < ${daysBefore(now, policy.observationsDays)} limit ${DELETE_BATCH_ROWS})
              returning 1)
            select count(*)::int as count from gone`);
    return Object.freeze({ appliedAt: now.toISOString(), deletedRuns, deletedSpans, deletedObservations, keptRuns });
  }

  /** Runs a statement deleting at most DELETE_BATCH_ROWS rows (and selecting how many) until it deletes fewer; the total. */
  private async repeat(statement: ReturnType<typeof sql>): Promise<number> {
    let total = 0;
    for (;;) {
      const [row] = await this.database.query<{ count: number }>(statement);
      const count = Number(row?.count ?? 0);
      total += count;
      if (count < DELETE_BATCH_ROWS) return total;
      await nextTurn();
    }
  }
}
