import { asc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, openDatabase } from '../../../db/client';
import { migrateDatabase } from '../../../db/migrate';
import { costObservations, spans } from '../../../db/schema';
import { jsonRowsInsert } from './json-rows-insert';

let database: Database;

beforeAll(async () => {
  database = await openDatabase({ dataDir: 'memory://' });
  await migrateDatabase(database);
});

afterAll(async () => {
  await database?.close();
});

describe('a multi-row insert bound as one JSON parameter', () => {
  it('writes every column as drizzle reads it back: timestamps, numbers, nulls, jsonb, text with quotes', async () => {
    const startedAt = new Date('2026-12-01T10:00:00.123Z');
    const rows = [
      { id: 's1', runId: 'r1', parentId: null, name: `node "retrieve" — it's`, category: 'node', startedAt, endedAt: new Date(startedAt.getTime() + 5), durationMs: 5.25, tokens: 12, costUsd: 0.0001, status: 'ok', attributes: { sources: ['a', 'b'], nested: { n: 1 }, text: 'line\nbreak \u2028' } },
      { id: 's2', runId: 'r1', parentId: 's1', name: 'model.call', category: 'model', startedAt, endedAt: startedAt, durationMs: 0, tokens: 0, costUsd: 0, status: 'error', attributes: {} },
    ];
    await database.query(jsonRowsInsert(spans, rows));
    expect(await database.db.select().from(spans).where(eq(spans.runId, 'r1')).orderBy(asc(spans.id))).toEqual(rows);
  });

  it('keeps the rows in order (serial ids follow it), leaves unnamed columns to their defaults, and takes an ON CONFLICT tail', async () => {
    const observation = (field: string) => ({ runId: 'r2', planHash: 'p', estimator: 'heuristic-v1', field, intentClass: 'incident', estimate: 1, low: 0.5, high: 2, actual: 1.5, observedAt: new Date('2026-12-01T10:00:00Z'), planShape: null, goalTokens: null, sourceTokens: null, topK: 8 });
    const fields = ['tokens', 'costUsd', 'latencySeconds', 'accuracy', 'risk'];
    await database.query(jsonRowsInsert(costObservations, fields.map(observation)));
    const stored = await database.db.select().from(costObservations).where(eq(costObservations.runId, 'r2')).orderBy(asc(costObservations.id));
    expect(stored.map((row) => row.field)).toEqual(fields);
    expect(stored[0]).toMatchObject({ topK: 8, goalTokens: null, planShape: null });
    const again = { id: 's1', runId: 'r1', parentId: null, name: 'duplicate', category: 'node', startedAt: new Date(), endedAt: new Date(), durationMs: 1, tokens: 0, costUsd: 0, status: 'ok', attributes: {} };
    await database.query(jsonRowsInsert(spans, [again], { tail: sql`on conflict do nothing` }));
    expect((await database.db.select().from(spans).where(eq(spans.id, 's1')))[0]?.name).not.toBe('duplicate');
  });
});
