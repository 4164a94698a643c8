/**
 * PgRunStore listing for the Traces and Approvals pages: user, time-range and offset filters on
 * runs, and the approval audit log joined to its run's goal, newest first.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStores, type Stores } from './open-stores';

const root = mkdtempSync(path.join(tmpdir(), 'cr-run-store-listing-'));
let stores: Stores;

beforeAll(async () => {
  stores = await openStores({ dataDir: path.join(root, 'pglite') });
  for (const [id, user, createdAt] of [
    ['run-a', 'ana', '2026-03-01T10:00:00Z'],
    ['run-b', 'bo', '2026-03-02T10:00:00Z'],
    ['run-c', 'ana', '2026-03-03T10:00:00Z'],
  ] as const) {
    await stores.runStore.createRun({ id, goal: `goal of ${id}`, planHash: 'h', plan: {}, user });
    await stores.database.query(sql`update runs set created_at = ${createdAt}::timestamptz where id = ${id}`);
  }
  await stores.runStore.setStatus('run-b', 'awaiting_approval', { pendingNodeId: 'approve' });
});

afterAll(async () => {
  await stores?.close();
  rmSync(root, { recursive: true, force: true });
});

describe('PgRunStore listing', () => {
  const ids = async (options: Parameters<Stores['runStore']['listRuns']>[0]) => (await stores.runStore.listRuns(options)).map((run) => run.id);

  it('filters by user and by a from-inclusive, to-exclusive time range', async () => {
    expect(await ids({ limit: 10, user: 'ana' })).toEqual(['run-c', 'run-a']);
    expect(await ids({ limit: 10, from: '2026-03-02T10:00:00Z' })).toEqual(['run-c', 'run-b']);
    expect(await ids({ limit: 10, to: '2026-03-02T10:00:00Z' })).toEqual(['run-a']);
    expect(await ids({ limit: 10, user: 'ana', from: '2026-03-02T00:00:00Z', to: '2026-03-04T00:00:00Z' })).toEqual(['run-c']);
    await expect(stores.runStore.listRuns({ limit: 10, from: 'last week' })).rejects.toMatchObject({ code: 'INVALID_INPUT', field: 'from' });
  });

  it('pages with offset and reports the gate a paused run waits at', async () => {
    expect(await ids({ limit: 2, offset: 0 })).toEqual(['run-c', 'run-b']);
    expect(await ids({ limit: 2, offset: 2 })).toEqual(['run-a']);
    const [paused] = await stores.runStore.listRuns({ limit: 1, status: 'awaiting_approval' });
    expect(paused).toMatchObject({ id: 'run-b', pendingNodeId: 'approve' });
    expect((await stores.runStore.listRuns({ limit: 1, user: 'bo', status: 'completed' })).length).toBe(0);
  });

  it('lists decisions newest first with the goal, filtered by run', async () => {
    await stores.runStore.recordDecision('run-b', { nodeId: 'approve', decision: 'approved', by: 'lead@example.com', comment: 'ok', at: '2026-03-02T11:00:00Z' });
    await stores.runStore.recordDecision('run-a', { nodeId: 'approve', decision: 'rejected', by: 'lead@example.com', comment: '', at: '2026-03-02T12:00:00Z' });
    const log = await stores.runStore.listDecisions({ limit: 10 });
    expect(log.map((entry) => [entry.runId, entry.decision, entry.goal, entry.at])).toEqual([
      ['run-a', 'rejected', 'goal of run-a', '2026-03-02T12:00:00.000Z'],
      ['run-b', 'approved', 'goal of run-b', '2026-03-02T11:00:00.000Z'],
    ]);
    expect((await stores.runStore.listDecisions({ limit: 10, runId: 'run-b' })).map((entry) => entry.comment)).toEqual(['ok']);
    expect((await stores.runStore.listDecisions({ limit: 1, offset: 1 })).map((entry) => entry.runId)).toEqual(['run-b']);
  });
});
