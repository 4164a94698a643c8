/**
 * Issue 12, finding 6: per-user concurrent-run and daily-spend limits, spend read from the costs
 * the run store recorded. Before the fix nothing limited either.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PgRunStore } from '../../adapters/db/pg-run-store';
import { type Database, openDatabase } from '../../../db/client';
import { migrateDatabase } from '../../../db/migrate';
import { DEFAULT_LIMITS } from '../config/limits-schema';
import type { ContextRuntimeError } from '../errors';
import { RunLimiter, SPEND_READ_FRESH_MS } from './run-limits';

let database: Database;
let runStore: PgRunStore;
const noon = () => new Date('2026-03-04T12:00:00.000Z');

const refusal = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (error: unknown) => error as ContextRuntimeError,
  );

beforeAll(async () => {
  database = await openDatabase({ dataDir: 'memory://' });
  await migrateDatabase(database);
  runStore = new PgRunStore(database);
  // Ana spent $0.90 today and $50 yesterday; only today counts.
  for (const [id, costUsd, createdAt] of [['r1', 0.6, '2026-03-04T01:00:00Z'], ['r2', 0.3, '2026-03-04T11:00:00Z'], ['r0', 50, '2026-03-03T23:59:59Z']] as const) {
    await runStore.createRun({ id, goal: 'g', planHash: 'h', plan: null, user: 'ana' });
    await runStore.setStatus(id, 'completed', { costUsd });
    await database.exec(`UPDATE runs SET created_at = '${createdAt}' WHERE id = '${id}'`);
  }
});

afterAll(async () => {
  await database?.close();
});

describe('RunLimiter', () => {
  it('sums only the user’s recorded spend since the start of the UTC day', async () => {
    expect(await runStore.spendSince('ana', '2026-03-04T00:00:00.000Z')).toBeCloseTo(0.9, 10);
    expect(await runStore.spendSince('bo', '2026-03-04T00:00:00.000Z')).toBe(0);
  });

  it('refuses a run that would take the user past the daily limit, saying when it resets', async () => {
    const limiter = new RunLimiter(runStore, { max_concurrent_per_user: 4, max_daily_spend_usd_per_user: 1 }, noon);
    (await limiter.admit('ana', 0.05))();
    const refused = await refusal(limiter.admit('ana', 0.2));
    expect(refused).toMatchObject({ code: 'RATE_LIMITED', field: 'limits.runs.max_daily_spend_usd_per_user', details: { retryAfterSeconds: 12 * 3600 } });
    expect(refused!.message).toMatch(/ana has spent \$0\.9000 of the \$1\.00 daily limit/);
    // Another user's budget is their own; null turns the limit off.
    (await limiter.admit('bo', 0.2))();
    (await new RunLimiter(runStore, { max_concurrent_per_user: 4, max_daily_spend_usd_per_user: null }, noon).admit('ana', 100))();
  });

  it('allows max_concurrent_per_user runs at once per user and frees a slot on release', async () => {
    const limiter = new RunLimiter(runStore, { ...DEFAULT_LIMITS.runs, max_concurrent_per_user: 2 }, noon);
    const first = await limiter.admit('bo', 0);
    const second = await limiter.admit('bo', 0);
    expect(await refusal(limiter.admit('bo', 0))).toMatchObject({ code: 'RATE_LIMITED', field: 'limits.runs.max_concurrent_per_user' });
    const other = await limiter.admit('cy', 0);
    first();
    first(); // a second release of the same slot frees nothing more
    const third = await limiter.admit('bo', 0);
    expect(await refusal(limiter.admit('bo', 0))).toMatchObject({ code: 'RATE_LIMITED' });
    for (const release of [second, third, other]) release();
  });

  it('reads a user’s spend at most once a second, counting this process’s released runs at once and others’ from the next read', async () => {
    let clockMs = 0;
    const limiter = new RunLimiter(runStore, { max_concurrent_per_user: 4, max_daily_spend_usd_per_user: 1 }, noon, () => clockMs);
    await runStore.createRun({ id: 'dee-1', goal: 'g', planHash: 'h', plan: null, user: 'dee' });
    await runStore.setStatus('dee-1', 'completed', { costUsd: 0.5 });
    await database.exec(`UPDATE runs SET created_at = '2026-03-04T10:00:00Z' WHERE id = 'dee-1'`);
    // $0.50 read; this process's run records $0.30 at release: $0.80 without a read.
    (await limiter.admit('dee', 0.1))(0.3);
    expect(await refusal(limiter.admit('dee', 0.25))).toMatchObject({ code: 'RATE_LIMITED', details: { spentUsd: 0.8 } });
    // Another process records $0.15: unseen within the second ($0.80 + $0.15 + $0.10 would be over), seen after it.
    await runStore.createRun({ id: 'dee-2', goal: 'g', planHash: 'h', plan: null, user: 'dee' });
    await runStore.setStatus('dee-2', 'completed', { costUsd: 0.15 });
    await database.exec(`UPDATE runs SET created_at = '2026-03-04T11:00:00Z' WHERE id = 'dee-2'`);
    clockMs = SPEND_READ_FRESH_MS - 1;
    (await limiter.admit('dee', 0.1))();
    // Read again: $0.65 recorded ($0.30 above was this test's word, never recorded), and $0.40 more is over.
    clockMs = SPEND_READ_FRESH_MS;
    expect(await refusal(limiter.admit('dee', 0.4))).toMatchObject({ code: 'RATE_LIMITED', details: { spentUsd: 0.65 } });
  });
});
