import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStores, type Stores } from './open-stores';
import { PgRetention } from './pg-retention';
import { joinPlan, splitPlan } from './run-plan-body';

const root = mkdtempSync(path.join(tmpdir(), 'cr-plan-body-'));
let stores: Stores;

beforeAll(async () => {
  stores = await openStores({ dataDir: path.join(root, 'pglite') });
});

afterAll(async () => {
  await stores?.close();
  rmSync(root, { recursive: true, force: true });
});

/** A stored plan as startRun writes it: what a plan-cache hit copies, and what is this request's own. */
const planFor = (goal: string, candidateScore = 0.7) => ({
  request: { goal, sources: ['demo-logs'] },
  explain: {
    goal,
    planHash: 'plan-1',
    planCache: { status: 'hit' },
    planningMs: goal.length,
    candidates: [{ id: 'bm25/single_shot', score: candidateScore, estimates: { tokens: 1200 } }],
    rejectedCandidates: [{ id: 'dense/single_shot', rule: 'dominated', stage: 'retrieval' }],
    graph: { nodes: [{ id: 'retrieve-bm25', kind: 'retrieve' }] },
    capabilities: { retrievers: ['bm25'] },
  },
});

const count = async (table: 'runs' | 'run_plan_bodies') => Number((await stores.database.query<{ count: number }>(sql`select count(*)::int as count from ${sql.identifier(table)}`))[0].count);

describe('run plan bodies', () => {
  it('splits only an EXPLAIN, and joins back what it split', () => {
    expect(splitPlan({ request: { goal: 'g' } })).toEqual({ rest: { request: { goal: 'g' } } });
    const { rest, body } = splitPlan(planFor('why?'));
    expect(rest).toEqual({ request: { goal: 'why?', sources: ['demo-logs'] }, explain: { goal: 'why?', planHash: 'plan-1', planCache: { status: 'hit' }, planningMs: 4 } });
    expect(joinPlan(rest, JSON.parse(body!.json))).toEqual(planFor('why?'));
  });

  it('keeps what runs of one cached plan share once, and loads each run whole', async () => {
    await stores.runStore.createRun({ id: 'run-a', goal: 'why did checkout fail?', planHash: 'plan-1', plan: planFor('why did checkout fail?'), user: 'ana' });
    await stores.runStore.createRun({ id: 'run-b', goal: 'what broke checkout?', planHash: 'plan-1', plan: planFor('what broke checkout?'), user: 'ana', owner: 'instance-1' });
    expect(await count('run_plan_bodies')).toBe(1);
    const [row] = await stores.database.query<{ shared: boolean }>(sql`select bool_or(plan -> 'explain' ? 'candidates') as shared from runs`);
    expect(row.shared).toBe(false);
    expect((await stores.runStore.loadRun('run-a'))!.plan).toEqual(planFor('why did checkout fail?'));
    expect(await stores.runStore.loadRun('run-b')).toMatchObject({ plan: planFor('what broke checkout?'), owner: 'instance-1', status: 'running' });
    // Another plan (the cost model moved an estimate): a body of its own.
    await stores.runStore.createRun({ id: 'run-c', goal: 'why?', planHash: 'plan-1', plan: planFor('why?', 0.8), user: 'ana' });
    expect(await count('run_plan_bodies')).toBe(2);
    await expect(stores.runStore.createRun({ id: 'run-c', goal: 'why?', planHash: 'plan-1', plan: planFor('why?', 0.8), user: 'ana' })).rejects.toMatchObject({ code: 'CONFLICT' });
  });

  it('retention deletes a body with the last run that held it; a later run writes it again', async () => {
    await stores.runStore.setStatus('run-a', 'completed');
    await stores.runStore.setStatus('run-b', 'completed');
    await stores.runStore.setStatus('run-c', 'completed');
    await stores.database.query(sql`update runs set updated_at = now() - interval '100 days' where id in ('run-a', 'run-b')`);
    await new PgRetention(stores.database).apply({ runsDays: 90, spansDays: null, observationsDays: null });
    expect(await count('runs')).toBe(1);
    expect(await count('run_plan_bodies')).toBe(1);
    // This store remembers run-a's body as written: the insert without it fails on the foreign key and is repeated with it.
    await stores.runStore.createRun({ id: 'run-d', goal: 'why did checkout fail?', planHash: 'plan-1', plan: planFor('why did checkout fail?'), user: 'ana' });
    expect((await stores.runStore.loadRun('run-d'))!.plan).toEqual(planFor('why did checkout fail?'));
    expect(await count('run_plan_bodies')).toBe(2);
  });

  it('reuses the body text of a plan made of the same shared objects, and computes it again when one differs', () => {
    const graph = { nodes: [{ id: 'retrieve' }] };
    const candidates = [{ id: 'c1' }];
    const first = splitPlan({ request: { goal: 'a' }, explain: { goal: 'a', graph, candidates } });
    const again = splitPlan({ request: { goal: 'b' }, explain: { goal: 'b', graph, candidates } });
    expect(again.body).toBe(first.body);
    const changed = splitPlan({ request: { goal: 'c' }, explain: { goal: 'c', graph, candidates: [{ id: 'c2' }] } });
    expect(changed.body).not.toBe(first.body);
    expect(changed.body!.hash).not.toBe(first.body!.hash);
    expect(JSON.parse(changed.body!.json)).toEqual({ candidates: [{ id: 'c2' }], graph });
  });
});
