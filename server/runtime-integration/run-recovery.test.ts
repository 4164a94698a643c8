/**
 * Durable runs on the embedded default (issue 13, point 1): a run in flight against a slow model
 * when its process goes away is resumed by the next start from its saved node outcomes, or failed
 * with the reason when it cannot be resumed; never left `running`. A cancel ends a run at once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_QUESTION } from '../ingest/demo-corpus';
import { startLoopbackOpenAIServer, type LoopbackOpenAIServer } from '../testing/loopback-openai-server';
import { openRuntimeFixture, type RuntimeFixture } from '../testing/runtime-fixture';
import type { RunResult } from '../runtime';
import type { StoredPlan } from '../runtime/facade/execute-run';

const ALICE = { user: 'alice', roles: ['operator'] };
const BOB = { user: 'bob', roles: ['operator'] };
const ADMIN = { user: 'root', roles: ['admin'] };

let server: LoopbackOpenAIServer;
let fixture: RuntimeFixture;

async function until<T>(what: string, probe: () => Promise<T | undefined> | T | undefined, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** Starts a run and resolves once its model call is in flight at the loopback server. */
async function startSlowRun(principal = ALICE): Promise<{ runId: string; settled: Promise<RunResult | Error> }> {
  const before = server.requests.length;
  const settled = fixture.runtime.run({ goal: DEMO_QUESTION, principal }).catch((error: unknown) => error as Error);
  await until('the model call', () => (server.requests.length > before ? true : undefined));
  const [running] = await fixture.plugins.runStore.listRuns({ limit: 1, status: 'running' });
  return { runId: running.id, settled };
}

describe('durable runs: recovery after the process goes away, and cancel', () => {
  beforeAll(async () => {
    server = await startLoopbackOpenAIServer({ text: 'The checkout-api pods ran out of memory [1].', delayMs: 1500 });
    fixture = await openRuntimeFixture({
      config: {
        // quality_prior 0.9 makes the planner choose the (slow) loopback tier over the extractive one.
        // One answering call: the tests crash while "the reason node" is in flight (a mixture's first reason node is its decompose).
        models: { mixtures: false, tiers: [{ name: 'slow', provider: 'openai-compatible', base_url: server.baseURL, model: 'loop-1', quality_prior: 0.9 }, { name: 'local', provider: 'extractive' }] },
        scheduler: { backoff_ms: 0, node_timeout_ms: 30_000, heartbeat_ms: 200, orphan_after_ms: 1_000 },
        learning: { enabled: false },
        // The scripted replies are no cited answers; verification that gates (its judge call, its retry) is not the subject here.
        verification: { default: false, judge: false },
      },
    });
  }, 60_000);

  afterAll(async () => {
    await fixture?.close();
    await server?.close();
  });

  it('records this process as the owner of a run while it executes', async () => {
    const { runId, settled } = await startSlowRun();
    const record = await fixture.plugins.runStore.loadRun(runId);
    expect(record?.owner).toMatch(new RegExp(`^${process.pid}-`));
    const result = await settled;
    expect(result).toMatchObject({ runId, status: 'completed' });
    expect((await fixture.plugins.runStore.loadRun(runId))?.owner).toBeUndefined();
  }, 30_000);

  it('resumes a run whose process closed mid-run from its saved node outcomes; it ends completed, not running', async () => {
    const { runId, settled } = await startSlowRun();
    // Crash while the answer is being written: every input of the reason node is saved, its model call in flight.
    const saved = await until('the reason node to start', async () => {
      const record = (await fixture.plugins.runStore.loadRun(runId))!;
      const reason = (record.plan as StoredPlan).explain.graph.nodes.find((node) => node.kind === 'reason')!;
      return reason.inputs.every((input) => record.nodeOutcomes.has(input)) ? record.nodeOutcomes : undefined;
    });
    // Its call takes 1.5 s; a moment lets it reach the model before the crash.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(saved.size).toBeGreaterThan(0);
    expect(saved.has('reason')).toBe(false);
    // The "crash": close everything under the run while its model call is in flight, then start on the same data directory.
    fixture = await fixture.restart();
    const orphan = await fixture.plugins.runStore.loadRun(runId);
    expect(orphan?.status).toBe('running');
    server.reply({ text: 'The checkout-api pods ran out of memory [1].', delayMs: 0 });

    const recovered = await fixture.runtime.recoverRuns();
    expect(recovered).toEqual([{ runId, status: 'completed' }]);
    const after = await fixture.plugins.runStore.loadRun(runId);
    expect(after).toMatchObject({ status: 'completed', result: { answer: 'The checkout-api pods ran out of memory [1].' } });
    expect(after?.owner).toBeUndefined();
    // Nodes done before the crash were not executed again: their outcomes are the saved ones.
    for (const [nodeId, outcome] of saved) expect(after?.nodeOutcomes.get(nodeId)).toEqual(outcome);
    // The old process's run settles with an error (its database is closed), not with a result.
    expect(await settled).toBeInstanceOf(Error);
    server.reply({ delayMs: 1500 });
  }, 60_000);

  it('fails, with the reason, a run left running by a dead owner that cannot be resumed', async () => {
    const runId = 'orphan-without-plan';
    await fixture.plugins.runStore.createRun({ id: runId, goal: 'lost', planHash: 'none', plan: {}, user: 'alice', owner: 'dead-process' });
    fixture = await fixture.restart();
    const recovered = await fixture.runtime.recoverRuns();
    expect(recovered).toEqual([{ runId, status: 'failed', error: expect.stringContaining('the process executing this run stopped, and resuming it failed') }]);
    const record = await fixture.plugins.runStore.loadRun(runId);
    expect(record).toMatchObject({ status: 'failed', error: expect.stringContaining('resuming it failed') });
    // A second look finds nothing left to recover.
    expect(await fixture.plugins.runStore.claimOrphans!('another-process', 0)).toEqual([]);
  }, 60_000);

  it('cancels a running run at once as the user who started it; others may not; an ended run cannot be cancelled', async () => {
    server.reply({ delayMs: 10_000 });
    const { runId, settled } = await startSlowRun();
    await expect(fixture.runtime.cancel(runId, BOB)).rejects.toMatchObject({ code: expect.stringMatching(/FORBIDDEN|NOT_FOUND/) });
    const started = Date.now();
    const cancelled = await fixture.runtime.cancel(runId, ALICE);
    expect(cancelled).toMatchObject({ runId, status: 'cancelled', error: 'cancelled by alice' });
    const result = await settled;
    // The run stopped waiting for the 10 s model call.
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(result).toMatchObject({ runId, status: 'cancelled' });
    expect((await fixture.plugins.runStore.loadRun(runId))?.status).toBe('cancelled');
    await expect(fixture.runtime.cancel(runId, ADMIN)).rejects.toMatchObject({ code: 'CONFLICT', message: expect.stringContaining('status cancelled') });
    server.reply({ delayMs: 1500 });
  }, 30_000);

  it('stops executing, at its next heartbeat, a run cancelled by another process sharing the database', async () => {
    server.reply({ delayMs: 10_000 });
    const { runId, settled } = await startSlowRun();
    const started = Date.now();
    // What runtime.cancel in another server writes; this process hears of it only through the database.
    expect(await fixture.plugins.runStore.setStatus(runId, 'cancelled', { error: 'cancelled by ops on another server', pendingNodeId: null, onlyIf: ['running'] })).toBe(true);
    expect(await settled).toMatchObject({ runId, status: 'cancelled', error: 'cancelled by ops on another server' });
    expect(Date.now() - started).toBeLessThan(5_000);
    server.reply({ delayMs: 1500 });
  }, 30_000);

  it('lets an admin cancel anyone’s run', async () => {
    server.reply({ delayMs: 10_000 });
    const { runId, settled } = await startSlowRun(BOB);
    expect(await fixture.runtime.cancel(runId, ADMIN)).toMatchObject({ status: 'cancelled', error: 'cancelled by root' });
    expect(await settled).toMatchObject({ status: 'cancelled' });
  }, 30_000);
});
