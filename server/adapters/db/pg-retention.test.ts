import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStores, type Stores } from './open-stores';
import { PgRetention } from './pg-retention';

const root = mkdtempSync(path.join(tmpdir(), 'cr-retention-'));
let stores: Stores;
const NOW = new Date('2026-12-01T12:00:00Z');
const daysAgo = (days: number) => new Date(NOW.getTime() - days * 86_400_000);

async function addRun(id: string, status: string, ageDays: number): Promise<void> {
  const at = daysAgo(ageDays);
  await stores.database.query(sql`
    insert into runs (id, goal, status, plan_hash, plan, user_name, created_at, updated_at)
    values (${id}, ${`goal of ${id}`}, ${status}, 'plan', '{}'::jsonb, 'ops@example.com', ${at}, ${at})`);
  await stores.database.query(sql`insert into run_nodes (run_id, node_id, status) values (${id}, 'n1', 'done')`);
  await stores.database.query(sql`
    insert into spans (id, run_id, name, category, started_at, ended_at, duration_ms, status)
    values (${`span-${id}`}, ${id}, 'retrieve', 'node', ${at}, ${at}, 1, 'ok')`);
}

const ids = async (table: 'runs' | 'spans' | 'run_nodes', column = table === 'run_nodes' ? 'run_id' : 'id') =>
  (await stores.database.query<{ id: string }>(sql`select ${sql.identifier(column)} as id from ${sql.identifier(table)} order by 1`)).map((row) => row.id);

beforeAll(async () => {
  stores = await openStores({ dataDir: path.join(root, 'pglite') });
  await addRun('old-completed', 'completed', 120);
  await addRun('old-failed', 'failed', 100);
  await addRun('old-waiting', 'awaiting_approval', 400);
  await addRun('old-running', 'running', 95);
  await addRun('old-audited', 'completed', 200);
  await addRun('recent-completed', 'completed', 10);
  await stores.database.query(sql`insert into approval_audit (run_id, node_id, decision, decided_by) values ('old-audited', 'gate', 'approved', 'lead@example.com')`);
  // 2,500 observations a year old (several DELETE batches) and 3 from yesterday.
  await stores.database.query(sql`
    insert into cost_observations (run_id, plan_hash, estimator, field, intent_class, estimate, low, high, actual, observed_at)
    select 'r' || n, 'p', 'heuristic-v1', 'tokens', 'lookup', 1, 0, 2, 1, ${daysAgo(365)}::timestamptz from generate_series(1, 2500) as n`);
  await stores.database.query(sql`
    insert into cost_observations (run_id, plan_hash, estimator, field, intent_class, estimate, low, high, actual, observed_at)
    select 'r' || n, 'p', 'heuristic-v1', 'tokens', 'lookup', 1, 0, 2, 1, ${daysAgo(1)}::timestamptz from generate_series(1, 3) as n`);
});

afterAll(async () => {
  await stores?.close();
  rmSync(root, { recursive: true, force: true });
});

describe('PgRetention', () => {
  it('keeps everything when every age is null', async () => {
    const report = await new PgRetention(stores.database).apply({ runsDays: null, spansDays: null, observationsDays: null }, NOW);
    expect(report).toMatchObject({ deletedRuns: 0, deletedSpans: 0, deletedObservations: 0, keptRuns: 0 });
    expect(await ids('runs')).toHaveLength(6);
  });

  it('deletes settled runs past runs_days with their nodes and spans, never a waiting, running or audited run', async () => {
    const report = await new PgRetention(stores.database).apply({ runsDays: 90, spansDays: null, observationsDays: null }, NOW);
    expect(report).toMatchObject({ appliedAt: NOW.toISOString(), deletedRuns: 2, deletedSpans: 0, deletedObservations: 0, keptRuns: 3 });
    expect(await ids('runs')).toEqual(['old-audited', 'old-running', 'old-waiting', 'recent-completed']);
    expect(await ids('run_nodes')).toEqual(['old-audited', 'old-running', 'old-waiting', 'recent-completed']);
    expect(await ids('spans')).toEqual(['span-old-audited', 'span-old-running', 'span-old-waiting', 'span-recent-completed']);
  });

  it('deletes spans past spans_days except those of a run still running or waiting at a gate', async () => {
    const report = await new PgRetention(stores.database).apply({ runsDays: null, spansDays: 30, observationsDays: null }, NOW);
    expect(report.deletedSpans).toBe(1);
    expect(await ids('spans')).toEqual(['span-old-running', 'span-old-waiting', 'span-recent-completed']);
  });

  it('deletes observations past observations_days in batches and keeps recent ones', async () => {
    const report = await new PgRetention(stores.database).apply({ runsDays: null, spansDays: null, observationsDays: 180 }, NOW);
    expect(report.deletedObservations).toBe(2500);
    const [row] = await stores.database.query<{ count: number }>(sql`select count(*)::int as count from cost_observations`);
    expect(row.count).toBe(3);
  });
});
