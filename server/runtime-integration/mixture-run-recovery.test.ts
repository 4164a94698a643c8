/**
 * A crashed mixture run resumes (issue 15 point 2 with issue 13's durable runs): plan_worker_critic's
 * decompose and first worker finish, the second worker's model call is in flight when the process
 * goes away; the next start resumes the run from its saved node outcomes and finishes it, and no
 * model call that had completed (decompose, the first worker) is sent again.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_QUESTION } from '../ingest/demo-corpus';
import type { StoredPlan } from '../runtime/facade/execute-run';
import { CONTEXT_SYSTEM_PROMPT, parseContextPrompt } from '../runtime/reasoner/context-prompt';
import { CRITIC_SYSTEM_PROMPT, DECOMPOSE_SYSTEM_PROMPT } from '../runtime/reasoner/mixture-prompts';
import { startLoopbackOpenAIServer, type LoopbackOpenAIServer } from '../testing/loopback-openai-server';
import { openRuntimeFixture, type RuntimeFixture } from '../testing/runtime-fixture';
import { scriptedAnswer } from '../testing/scripted-answer-model';

const SUB_QUESTIONS = ['What error did the checkout-api pods report?', 'Which change raised the memory use of checkout-api?'];
/** The second worker's call outlasts the crash; after the restart every call answers at once. */
const SLOW_WORKER_MS = 4_000;

type Kind = 'decompose' | 'worker1' | 'worker2' | 'critic' | 'merge' | 'other';
const messages = (body: Record<string, unknown>) => (body.messages as { role: string; content: string }[] | undefined) ?? [];
const system = (body: Record<string, unknown>) => messages(body).find((message) => message.role === 'system')?.content ?? '';
const user = (body: Record<string, unknown>) => messages(body).find((message) => message.role === 'user')?.content ?? '';

function kindOf(body: Record<string, unknown>): Kind {
  if (system(body).startsWith(DECOMPOSE_SYSTEM_PROMPT)) return 'decompose';
  if (system(body) === CRITIC_SYSTEM_PROMPT) return 'critic';
  const question = parseContextPrompt(user(body))?.question ?? '';
  if (question === SUB_QUESTIONS[0]) return 'worker1';
  if (question === SUB_QUESTIONS[1]) return 'worker2';
  if (system(body) === CONTEXT_SYSTEM_PROMPT) return 'merge';
  return 'other';
}

let server: LoopbackOpenAIServer;
let fixture: RuntimeFixture;
const seen: Kind[] = [];

function script(slowWorkerMs: number): void {
  server.script((body) => {
    const kind = kindOf(body);
    seen.push(kind);
    switch (kind) {
      case 'decompose':
        return { text: SUB_QUESTIONS.map((question, index) => `${index + 1}. ${question}`).join('\n') };
      case 'worker1':
        return { text: scriptedAnswer('correct', body, 0) };
      case 'worker2':
        return { text: scriptedAnswer('correct', body, 0), delayMs: slowWorkerMs };
      case 'critic':
        return { text: '1: GROUNDED\n2: GROUNDED' };
      case 'merge':
        return { text: scriptedAnswer('correct', body, 0) };
      default:
        return { text: 'no grades' };
    }
  });
}

async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe('a plan_worker_critic run that crashed mid-workers', () => {
  beforeAll(async () => {
    server = await startLoopbackOpenAIServer();
    fixture = await openRuntimeFixture({
      config: {
        models: { mixtures: true, tiers: [{ name: 'model', provider: 'openai-compatible', base_url: server.baseURL, model: 'loop-1', quality_prior: 0.9 }, { name: 'local', provider: 'extractive' }] },
        scheduler: { backoff_ms: 0, node_timeout_ms: 30_000, heartbeat_ms: 200, orphan_after_ms: 1_000 },
        learning: { enabled: false },
        // A measured gain makes the planner choose the mixture (unmeasured, one shot wins: reasoner-gains.ts).
        costmodel: { reasoner_gains: { plan_worker_critic: { incident: 0.3 } } },
        // The gate's judge and retry are not the subject here.
        verification: { default: false, judge: false },
      },
    });
  }, 120_000);

  afterAll(async () => {
    await fixture?.close();
    await server?.close();
  });

  it('resumes from the saved outcomes, finishes, and repeats no completed model call', async () => {
    script(SLOW_WORKER_MS);
    const settled = fixture.runtime.run({ goal: DEMO_QUESTION, weights: { cost: 0, lat: 0 } }).catch((error: unknown) => error as Error);
    const [running] = await until('the run', async () => {
      const runs = await fixture.plugins.runStore.listRuns({ limit: 1, status: 'running' });
      return runs.length > 0 ? runs : undefined;
    });
    const runId = running.id;
    const graph = ((await fixture.plugins.runStore.loadRun(runId))!.plan as StoredPlan).explain.graph;
    expect(graph.nodes.find((node) => node.id === 'reason')).toMatchObject({ strategy: 'plan_worker_critic' });
    // Crash once the first worker's answer is saved while the second worker's call is in flight.
    const saved = await until('worker1 saved, worker2 in flight', async () => {
      const record = (await fixture.plugins.runStore.loadRun(runId))!;
      return record.nodeOutcomes.has('worker1') && seen.includes('worker2') ? record.nodeOutcomes : undefined;
    });
    expect(saved.has('decompose')).toBe(true);
    expect(saved.has('worker2')).toBe(false);
    expect(saved.has('reason')).toBe(false);
    fixture = await fixture.restart();
    expect((await fixture.plugins.runStore.loadRun(runId))?.status).toBe('running');
    const before = seen.length;
    script(0);

    expect(await fixture.runtime.recoverRuns()).toEqual([{ runId, status: 'completed' }]);
    const after = (await fixture.plugins.runStore.loadRun(runId))!;
    expect(after.status).toBe('completed');
    expect(after.result).toMatchObject({ answer: expect.stringContaining('[') });
    // Only what had not finished was called again: the second worker, the critic and the merge.
    const resumed = seen.slice(before);
    expect(resumed.filter((kind) => kind === 'decompose' || kind === 'worker1')).toEqual([]);
    expect(resumed.filter((kind) => kind === 'worker2')).toHaveLength(1);
    expect(resumed).toEqual(expect.arrayContaining(['critic', 'merge']));
    for (const [nodeId, outcome] of saved) expect(after.nodeOutcomes.get(nodeId)).toEqual(outcome);
    expect(await settled).toBeInstanceOf(Error);
  }, 120_000);
});
