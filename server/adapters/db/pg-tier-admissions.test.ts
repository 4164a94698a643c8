/**
 * A tier's limits hold across processes on a PostgreSQL server (issue 13, point 2): two processes
 * calling one provider model never exceed its max_concurrency or rpm together, where each process's
 * own limiter alone would let each send its full share. Runs only when TEST_DATABASE_URL is set; it
 * uses a database of its own, `context_runtime_admissions` on the same server (.ci/run creates it;
 * locally: su postgres -c "createdb -O context_runtime context_runtime_admissions"), and wipes THAT.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../../../db/client';
import { startLoopbackOpenAIServer, type LoopbackOpenAIServer } from '../../testing/loopback-openai-server';
import { openStores, type Stores } from './open-stores';
import { PgTierAdmissions } from './pg-tier-admissions';

function admissionsUrl(testUrl: string | undefined): string | undefined {
  if (!testUrl) return undefined;
  const url = new URL(testUrl);
  url.pathname = '/context_runtime_admissions';
  return url.toString();
}

const url = admissionsUrl(process.env.TEST_DATABASE_URL);
const CALLER = fileURLToPath(new URL('./testing/tier-admission-caller.ts', import.meta.url));
let stores: Stores;
let model: LoopbackOpenAIServer;

/** One caller process: resolves with how each of its calls ended. */
function callFromAnotherProcess(calls: number, limits: Record<string, number>, timeoutMs: number): Promise<string[]> {
  const child = spawn(process.execPath, ['--import', 'tsx', CALLER, url!, model.baseURL, String(calls), JSON.stringify(limits), String(timeoutMs)], { stdio: ['ignore', 'pipe', 'inherit'] });
  let said = '';
  child.stdout!.on('data', (chunk: Buffer) => (said += chunk.toString()));
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => (code === 0 ? resolve(JSON.parse(said.trim()) as string[]) : reject(new Error(`caller exited ${code}: ${said}`))));
  });
}

describe.skipIf(!url)('tier limits shared by the processes of one PostgreSQL deployment', () => {
  beforeAll(async () => {
    const wipe = await openDatabase({ url });
    await wipe.exec('DROP SCHEMA IF EXISTS drizzle CASCADE; DROP SCHEMA IF EXISTS public CASCADE; CREATE SCHEMA public;');
    await wipe.close();
    stores = await openStores({ url });
    model = await startLoopbackOpenAIServer({ text: 'ok', delayMs: 400 });
  }, 60_000);
  afterAll(async () => {
    await model?.close();
    await stores?.close();
  });
  beforeEach(async () => {
    await stores.database.query(sql`delete from tier_admissions`);
  });

  it('two processes with 3 calls each keep max_concurrency 2 between them, and every call is answered', async () => {
    const before = model.calls.length;
    const outcomes = await Promise.all([callFromAnotherProcess(3, { max_concurrency: 2 }, 30_000), callFromAnotherProcess(3, { max_concurrency: 2 }, 30_000)]);
    expect(outcomes.flat()).toEqual(Array(6).fill('ok'));
    const calls = model.calls.slice(before);
    expect(calls).toHaveLength(6);
    // The most calls open at the server at once, from both processes together.
    const peak = Math.max(...calls.map((call) => calls.filter((other) => other.arrivedAt <= call.arrivedAt && (other.endedAt ?? Infinity) > call.arrivedAt).length));
    expect(peak).toBe(2);
    // Every call left the ledger's in-flight set when it ended.
    const [open] = await stores.database.query<{ count: number }>(sql`select count(*)::int as count from tier_admissions where settled_at is null`);
    expect(open.count).toBe(0);
  }, 60_000);

  it('two processes with 2 calls each send 3 in the minute under rpm 3: the fourth waits past its deadline (TIMEOUT)', async () => {
    const before = model.calls.length;
    const outcomes = await Promise.all([callFromAnotherProcess(2, { rpm: 3 }, 20_000), callFromAnotherProcess(2, { rpm: 3 }, 20_000)]);
    expect(outcomes.flat().sort()).toEqual(['TIMEOUT', 'ok', 'ok', 'ok']);
    expect(model.calls.slice(before)).toHaveLength(3);
  }, 60_000);

  it('a call whose process died before settling holds its slot only until its lease ends', async () => {
    const ledger = new PgTierAdmissions(stores.database);
    const limits = { maxConcurrency: 1 };
    const first = await ledger.tryAdmit({ key: 'k', limits, tokens: 10, leaseMs: 300 });
    expect(first.admitted).toBe(true);
    expect(await ledger.tryAdmit({ key: 'k', limits, tokens: 10, leaseMs: 300 })).toMatchObject({ admitted: false });
    // Another model's calls count separately.
    expect((await ledger.tryAdmit({ key: 'other', limits, tokens: 10, leaseMs: 300 })).admitted).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect((await ledger.tryAdmit({ key: 'k', limits, tokens: 10, leaseMs: 300 })).admitted).toBe(true);
  });

  it('counts tokens per rolling minute: a call beyond tpm waits until the window frees, and settles at what it spent', async () => {
    const ledger = new PgTierAdmissions(stores.database);
    const limits = { tokensPerMinute: 100 };
    const first = await ledger.tryAdmit({ key: 't', limits, tokens: 80, leaseMs: 10_000 });
    expect(first.admitted).toBe(true);
    const refused = await ledger.tryAdmit({ key: 't', limits, tokens: 30, leaseMs: 10_000 });
    expect(refused).toMatchObject({ admitted: false });
    expect(refused.admitted === false && refused.retryAfterMs).toBeGreaterThan(55_000);
    // It really spent 20: the minute has room for 30 more.
    if (first.admitted) await ledger.settle(first.id, 20);
    expect((await ledger.tryAdmit({ key: 't', limits, tokens: 30, leaseMs: 10_000 })).admitted).toBe(true);
  });
});
