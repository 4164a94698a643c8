import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NodeOutcome } from '../../runtime/contracts/scheduler';
import { openStores, type Stores } from './open-stores';

const root = mkdtempSync(path.join(tmpdir(), 'cr-run-store-'));
const dataDir = path.join(root, 'pglite');
let stores: Stores;

const outcome = (output: unknown, costUsd: number, latencySeconds: number): NodeOutcome => ({ output, actual: { tokens: 100, costUsd, latencySeconds } });

beforeAll(async () => {
  stores = await openStores({ dataDir });
});

afterAll(async () => {
  await stores?.close();
  rmSync(root, { recursive: true, force: true });
});

describe('PgRunStore pause, decision and reload', () => {
  it('persists a paused run and reloads it intact after the database is reopened', async () => {
    const plan = { request: { goal: 'why did checkout fail?' }, graph: { nodes: ['retrieve', 'answer', 'approve', 'release'] } };
    await stores.runStore.createRun({ id: 'run-1', goal: 'why did checkout fail?', planHash: 'plan-abc', plan, user: 'ana' });
    await stores.runStore.saveNodeOutcome('run-1', 'retrieve', outcome({ hits: 3 }, 0, 0.25), 1);
    await stores.runStore.saveNodeOutcome('run-1', 'answer', outcome({ text: 'OOM' }, 0.002, 1.5), 2);
    await stores.runStore.markSkipped('run-1', 'branch-b');
    await stores.runStore.setStatus('run-1', 'awaiting_approval', { pendingNodeId: 'approve' });

    // A restart: close PGlite and open the same directory again.
    await stores.close();
    stores = await openStores({ dataDir });

    const paused = await stores.runStore.loadRun('run-1');
    expect(paused).toMatchObject({ id: 'run-1', status: 'awaiting_approval', planHash: 'plan-abc', plan, user: 'ana', pendingNodeId: 'approve', skipped: ['branch-b'] });
    expect(paused!.nodeOutcomes.get('answer')).toEqual(outcome({ text: 'OOM' }, 0.002, 1.5));
    expect([...paused!.nodeOutcomes.keys()].sort()).toEqual(['answer', 'retrieve']);
    expect(paused!.decisions.size).toBe(0);

    await stores.runStore.recordDecision('run-1', { nodeId: 'approve', decision: 'approved', by: 'lead', comment: 'ship it', at: '2026-01-02T03:04:05.000Z' });
    await stores.runStore.setStatus('run-1', 'completed', { result: { answer: 'OOM' }, pendingNodeId: null });
    const done = await stores.runStore.loadRun('run-1');
    expect(done).toMatchObject({ status: 'completed', result: { answer: 'OOM' } });
    expect(done!.pendingNodeId).toBeUndefined();
    expect(done!.decisions.get('approve')).toEqual({ nodeId: 'approve', decision: 'approved', by: 'lead', comment: 'ship it', at: '2026-01-02T03:04:05.000Z' });
  });

  it('refuses a second decision on the same gate with CONFLICT and keeps the first', async () => {
    await expect(
      stores.runStore.recordDecision('run-1', { nodeId: 'approve', decision: 'rejected', by: 'mallory', comment: '', at: new Date().toISOString() }),
    ).rejects.toMatchObject({ code: 'CONFLICT', field: 'nodeId' });
    expect((await stores.runStore.loadRun('run-1'))!.decisions.get('approve')?.by).toBe('lead');
  });

  it('answers unknown runs with NOT_FOUND / undefined', async () => {
    expect(await stores.runStore.loadRun('nope')).toBeUndefined();
    await expect(stores.runStore.setStatus('nope', 'failed')).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(stores.runStore.saveNodeOutcome('nope', 'n', outcome(null, 0, 0), 1)).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(stores.runStore.recordDecision('nope', { nodeId: 'n', decision: 'approved', by: 'x', comment: '', at: new Date().toISOString() })).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
    await expect(stores.runStore.createRun({ id: 'run-1', goal: 'again', planHash: 'h', plan: {}, user: 'u' })).rejects.toMatchObject({ code: 'CONFLICT' });
  });

  it('lists runs newest first with totals summed from node outcomes, filtered by status and search', async () => {
    await stores.runStore.createRun({ id: 'run-2', goal: 'Explain the 50% error spike', planHash: 'h2', plan: null, user: 'bo' });
    await stores.runStore.setStatus('run-2', 'failed', { error: 'model unavailable' });
    const all = await stores.runStore.listRuns({ limit: 10 });
    expect(all.map((run) => run.id)).toEqual(['run-2', 'run-1']);
    expect(all[1]).toMatchObject({ status: 'completed', user: 'ana', planHash: 'plan-abc', costUsd: 0.002, latencySeconds: 1.75 });
    expect((await stores.runStore.listRuns({ limit: 10, status: 'failed' })).map((run) => run.id)).toEqual(['run-2']);
    expect((await stores.runStore.listRuns({ limit: 10, search: 'CHECKOUT' })).map((run) => run.id)).toEqual(['run-1']);
    // % is a literal in search, not a wildcard.
    expect((await stores.runStore.listRuns({ limit: 10, search: '50%' })).map((run) => run.id)).toEqual(['run-2']);
    expect((await stores.runStore.listRuns({ limit: 10, search: '%' })).map((run) => run.id)).toEqual(['run-2']);
    expect(await stores.runStore.listRuns({ limit: 1 })).toHaveLength(1);
    expect((await stores.runStore.loadRun('run-2'))).toMatchObject({ error: 'model unavailable', plan: null });
  });
});

describe('approval_audit is append-only in the database', () => {
  const failure = async (statement: ReturnType<typeof sql>) => {
    try {
      await stores.database.query(statement);
      return undefined;
    } catch (error) {
      return String((error as { cause?: { message?: string } }).cause?.message ?? (error as Error).message);
    }
  };

  it('saves several outcomes in one write, in the order given, replacing earlier ones of the same node; totals sum them', async () => {
    await stores.runStore.createRun({ id: 'run-batch', goal: 'batched', planHash: 'h', plan: {}, user: 'u' });
    await stores.runStore.saveNodeOutcome('run-batch', 'zeta', outcome({ first: true }, 0, 0.5), 1);
    await stores.runStore.saveNodeOutcomes('run-batch', [
      { nodeId: 'zeta', outcome: outcome({ again: true }, 0, 0.25), attempts: 2 },
      { nodeId: 'alpha', outcome: outcome({ hits: 2 }, 0, 0.25), attempts: 1 },
      { nodeId: 'mid', outcome: outcome({ answer: 'OOM' }, 0.003, 1), attempts: 1 },
    ]);
    await stores.runStore.saveNodeOutcomes('run-batch', []);
    // A branch not taken rides with the outcomes; a skip alone is one write too.
    await stores.runStore.saveNodeOutcomes('run-batch', [{ nodeId: 'verify', outcome: outcome({ passed: true }, 0, 0), attempts: 1 }], ['retry-reason', 'retry-verify']);
    await stores.runStore.saveNodeOutcomes('run-batch', [], ['retry-fuse']);
    const loaded = await stores.runStore.loadRun('run-batch');
    expect([...loaded!.nodeOutcomes.keys()]).toEqual(['zeta', 'alpha', 'mid', 'verify']);
    expect([...loaded!.skipped].sort()).toEqual(['retry-fuse', 'retry-reason', 'retry-verify']);
    expect(loaded!.nodeOutcomes.get('zeta')).toEqual(outcome({ again: true }, 0, 0.25));
    await stores.runStore.setStatus('run-batch', 'completed');
    const [summary] = await stores.runStore.listRuns({ limit: 1, search: 'batched' });
    expect(summary).toMatchObject({ costUsd: 0.003, latencySeconds: 1.5 });
    await expect(stores.runStore.saveNodeOutcomes('nope', [{ nodeId: 'n', outcome: outcome(null, 0, 0), attempts: 1 }])).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('writes a run\'s last outcomes with its status in one statement; totals count them once; a status kept out by onlyIf still saves them', async () => {
    const store = stores.runStore;
    await store.createRun({ id: 'run-end', goal: 'ends with its outcomes', planHash: 'h', plan: {}, user: 'u' });
    await store.saveNodeOutcomes('run-end', [
      { nodeId: 'reason', outcome: outcome({ answer: 'OOM' }, 0.004, 1), attempts: 1 },
      { nodeId: 'verify', outcome: outcome({ passed: false }, 0, 0.5), attempts: 1 },
    ]);
    // verify again (replacing the saved one, not added to it), a new node, and a skip.
    expect(
      await store.setStatusWithOutcomes('run-end', 'completed', { result: { answer: 'OOM' }, pendingNodeId: null, onlyIf: ['running'] }, [
        { nodeId: 'verify', outcome: outcome({ passed: true }, 0.001, 0.25), attempts: 2 },
        { nodeId: 'branch', outcome: outcome({ taken: 'accept' }, 0, 0.125), attempts: 1 },
      ], ['retry-reason']),
    ).toBe(true);
    const loaded = await store.loadRun('run-end');
    expect(loaded).toMatchObject({ status: 'completed', result: { answer: 'OOM' } });
    expect([...loaded!.nodeOutcomes.keys()]).toEqual(['reason', 'verify', 'branch']);
    expect(loaded!.nodeOutcomes.get('verify')).toEqual(outcome({ passed: true }, 0.001, 0.25));
    expect(loaded!.skipped).toEqual(['retry-reason']);
    const [summary] = await store.listRuns({ limit: 1, search: 'ends with its outcomes' });
    expect(summary.costUsd).toBeCloseTo(0.005, 10);
    expect(summary.latencySeconds).toBeCloseTo(1.375, 10);
    // Cancelled meanwhile: the status stays, the outcomes are kept, as saveNodeOutcomes would have kept them.
    await store.createRun({ id: 'run-cancelled', goal: 'cancelled meanwhile', planHash: 'h', plan: {}, user: 'u' });
    await store.setStatus('run-cancelled', 'cancelled');
    expect(await store.setStatusWithOutcomes('run-cancelled', 'completed', { onlyIf: ['running'] }, [{ nodeId: 'fuse', outcome: outcome({ hits: [] }, 0, 0.1), attempts: 1 }])).toBe(false);
    const cancelled = await store.loadRun('run-cancelled');
    expect([cancelled!.status, [...cancelled!.nodeOutcomes.keys()]]).toEqual(['cancelled', ['fuse']]);
    // Nothing waiting: a plain status write.
    await store.createRun({ id: 'run-plain', goal: 'nothing waiting', planHash: 'h', plan: {}, user: 'u' });
    expect(await store.setStatusWithOutcomes('run-plain', 'failed', { error: 'model unavailable' }, [])).toBe(true);
    expect(await store.loadRun('run-plain')).toMatchObject({ status: 'failed', error: 'model unavailable' });
    await expect(store.setStatusWithOutcomes('nope', 'completed', {}, [{ nodeId: 'n', outcome: outcome(null, 0, 0), attempts: 1 }])).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(store.setStatusWithOutcomes('nope', 'completed', { onlyIf: ['running'] }, [], ['skipped-node'])).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('refuses UPDATE, DELETE and TRUNCATE, and keeps the row', async () => {
    expect(await failure(sql`update approval_audit set decision = 'rejected' where run_id = 'run-1'`)).toMatch(/append-only: UPDATE/);
    expect(await failure(sql`delete from approval_audit where run_id = 'run-1'`)).toMatch(/append-only: DELETE/);
    expect(await failure(sql`truncate approval_audit`)).toMatch(/append-only: TRUNCATE/);
    const rows = await stores.database.query<{ decision: string }>(sql`select decision from approval_audit where run_id = 'run-1'`);
    expect(rows).toEqual([{ decision: 'approved' }]);
  });

  it('still accepts inserts', async () => {
    await stores.runStore.recordDecision('run-2', { nodeId: 'gate', decision: 'rejected', by: 'lead', comment: 'no', at: new Date().toISOString() });
    const rows = await stores.database.query<{ count: number }>(sql`select count(*)::int as count from approval_audit`);
    expect(rows[0].count).toBe(2);
  });
});
