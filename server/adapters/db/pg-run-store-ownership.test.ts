/**
 * Run ownership in PgRunStore: an owner and heartbeat while running, released when the run
 * settles; orphans claimed atomically by staleness; conditional status writes (cancel vs finish).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStores, type Stores } from './open-stores';

const root = mkdtempSync(path.join(tmpdir(), 'cr-run-owner-'));
let stores: Stores;

const create = (id: string, owner?: string) => stores.runStore.createRun({ id, goal: id, planHash: 'h', plan: {}, user: 'ana', ...(owner ? { owner } : {}) });
const heartbeatOf = async (id: string) => {
  const [row] = await stores.database.query<{ heartbeat_at: string | null; owner: string | null }>(sql`select heartbeat_at, owner from runs where id = ${id}`);
  return row;
};
const age = (id: string, seconds: number) => stores.database.query(sql`update runs set heartbeat_at = now() - make_interval(secs => ${seconds}) where id = ${id}`);

beforeAll(async () => {
  stores = await openStores({ dataDir: path.join(root, 'pglite') });
});

afterAll(async () => {
  await stores?.close();
  rmSync(root, { recursive: true, force: true });
});

describe('PgRunStore run ownership', () => {
  it('records the owner and a heartbeat while running, and releases both when the run settles', async () => {
    await create('owned', 'process-a');
    expect(await heartbeatOf('owned')).toMatchObject({ owner: 'process-a', heartbeat_at: expect.anything() });
    expect((await stores.runStore.loadRun('owned'))?.owner).toBe('process-a');
    await age('owned', 60);
    // A run it no longer owns is named back, so the process stops executing it.
    expect(await stores.runStore.heartbeat('process-a', ['owned', 'taken-over'])).toEqual(['taken-over']);
    const beaten = new Date((await heartbeatOf('owned')).heartbeat_at!).getTime();
    expect(Date.now() - beaten).toBeLessThan(10_000);
    await stores.runStore.setStatus('owned', 'completed');
    expect(await heartbeatOf('owned')).toEqual({ owner: null, heartbeat_at: null });
    expect(await stores.runStore.heartbeat('process-a', ['owned'])).toEqual(['owned']);
  });

  it('claims only runs whose owner stopped beating, once', async () => {
    await create('fresh', 'process-b');
    await create('stale', 'process-b');
    await create('mine', 'process-c');
    await create('unowned');
    await age('stale', 120);
    await age('mine', 120);
    const staleAfterMs = 30_000;
    expect([...(await stores.runStore.claimOrphans('process-c', staleAfterMs))].sort()).toEqual(['stale', 'unowned']);
    expect((await heartbeatOf('stale')).owner).toBe('process-c');
    // Claimed runs now beat for their new owner: nobody claims them again. A process never claims
    // its own runs; another one takes them once they go stale.
    expect(await stores.runStore.claimOrphans('process-d', staleAfterMs)).toEqual(['mine']);
    expect(await stores.runStore.claimOrphans('process-e', staleAfterMs)).toEqual([]);
    await expect(stores.runStore.claimOrphans('process-d', -1)).rejects.toMatchObject({ code: 'INVALID_INPUT', field: 'staleAfterMs' });
  });

  it('claims a run paused at a gate whose decision is older than staleAfterMs, as running; never an undecided gate', async () => {
    const paused = async (id: string) => {
      await create(id);
      await stores.runStore.setStatus(id, 'awaiting_approval', { pendingNodeId: 'approve' });
    };
    const decide = (id: string, at: Date) => stores.runStore.recordDecision(id, { nodeId: 'approve', decision: 'approved', by: 'ana', comment: '', at: at.toISOString() });
    await paused('gate-decided-long-ago');
    await paused('gate-decided-just-now');
    await paused('gate-undecided');
    await decide('gate-decided-long-ago', new Date(Date.now() - 120_000));
    // Its decider is still resuming it: claimed only once the decision is older than staleAfterMs.
    await decide('gate-decided-just-now', new Date());
    expect(await stores.runStore.claimOrphans('process-f', 30_000)).toEqual(['gate-decided-long-ago']);
    const claimed = await stores.runStore.loadRun('gate-decided-long-ago');
    expect(claimed).toMatchObject({ status: 'running', owner: 'process-f' });
    expect(claimed).not.toHaveProperty('pendingNodeId');
    expect(await stores.runStore.claimOrphans('process-g', 30_000)).toEqual([]);
    // (At 0 it also takes this file's other running runs.)
    const atOnce = await stores.runStore.claimOrphans('process-g', 0);
    expect(atOnce).toContain('gate-decided-just-now');
    expect(atOnce).not.toContain('gate-undecided');
    expect(await stores.runStore.loadRun('gate-undecided')).toMatchObject({ status: 'awaiting_approval', pendingNodeId: 'approve' });
  });

  it('writes a status only from the statuses named in onlyIf, and says whether it did', async () => {
    await create('raced', 'process-a');
    expect(await stores.runStore.setStatus('raced', 'cancelled', { error: 'cancelled by ana', onlyIf: ['running', 'awaiting_approval'] })).toBe(true);
    expect(await stores.runStore.setStatus('raced', 'completed', { result: { answer: 'late' }, onlyIf: ['running'] })).toBe(false);
    expect(await stores.runStore.loadRun('raced')).toMatchObject({ status: 'cancelled', error: 'cancelled by ana' });
    await expect(stores.runStore.setStatus('no-such-run', 'cancelled', { onlyIf: ['running'] })).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });
});
