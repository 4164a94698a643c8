/**
 * Issue 15, point 5 through the whole runtime, against real HTTP loopback model servers: a fallback
 * to a pricier tier that the run's max_cost_usd cannot cover is refused before its request is sent,
 * and max_latency_seconds aborts the call in flight at the wire. EXPLAIN ANALYZE shows the run's
 * budget after each node. (The figures over 100 runs: npm run bench:budget.)
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DEMO_QUESTION } from '../ingest/demo-corpus';
import { renderExplainTree } from '../runtime/explain/explain-tree';
import { startLoopbackOpenAIServer, type LoopbackOpenAIServer } from '../testing/loopback-openai-server';
import { openRuntimeFixture, type RuntimeFixture } from '../testing/runtime-fixture';

const ANSWER = 'The checkout-api pods ran out of memory [1].';
let cheap: LoopbackOpenAIServer;
let premium: LoopbackOpenAIServer;
let fixture: RuntimeFixture;

async function until(what: string, probe: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!probe()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('run budgets while the run runs', () => {
  beforeAll(async () => {
    [cheap, premium] = await Promise.all([startLoopbackOpenAIServer({ text: ANSWER }), startLoopbackOpenAIServer({ text: ANSWER })]);
    fixture = await openRuntimeFixture({
      config: {
        // The scripted replies are no judge verdicts; verification that gates (its judge call, its retry) is not the subject here.
        verification: { default: false, judge: false },
        models: {
          // The subject is one call's budget: a mixture's six calls would change which call meets the cap first.
          mixtures: false,
          // cheap is free per token and answers first; premium, the next rung, is priced. A 20-token
          // output cap keeps cheap's latency estimate (0.4 s + 20 × 0.03 s) inside the deadline tested below.
          tiers: [
            { name: 'cheap', provider: 'openai-compatible', base_url: cheap.baseURL, model: 'cheap-1', quality_prior: 0.9, max_output_tokens: 20 },
            { name: 'premium', provider: 'openai-compatible', base_url: premium.baseURL, model: 'premium-1', quality_prior: 0.95, input_usd_per_million: 20, output_usd_per_million: 80 },
          ],
        },
        scheduler: { backoff_ms: 0 },
        learning: { enabled: false },
      },
    });
  }, 120_000);

  afterAll(async () => {
    await fixture?.close();
    await Promise.all([cheap?.close(), premium?.close()]);
  });

  beforeEach(() => {
    cheap.reply({ status: 200, delayMs: 0 });
  });

  it('refuses the fallback to the priced tier before it starts, and the run fails naming max_cost_usd', async () => {
    cheap.reply({ status: 500 });
    const premiumBefore = premium.calls.length;
    const result = await fixture.runtime.run({ goal: DEMO_QUESTION, constraints: { max_cost_usd: 0.0005 } });
    expect(result.explain.chosen.choice.modelTier).toBe('cheap');
    expect(result.status).toBe('failed');
    expect(result.error).toMatch(/max_cost_usd: the call to model tier "premium" at node \S+ was refused before it started: it could use up to \$0\.\d+ \(\d+ prompt \+ 600 output tokens\)/);
    expect(premium.calls.length).toBe(premiumBefore);
    const analyze = result.explain.analyze!;
    expect(analyze.limits).toEqual({ max_cost_usd: 0.0005 });
    const reason = analyze.nodes.find((node) => node.kind === 'reason')!;
    expect(reason.status).toBe('failed');
    // Each node that finished before it carries the run's totals so far: nothing spent, time running.
    const done = analyze.nodes.filter((node) => node.status === 'done');
    expect(done.length).toBeGreaterThan(0);
    for (const node of done) expect(node.budget).toMatchObject({ costUsd: 0, tokens: 0, elapsedSeconds: expect.any(Number) });
    expect(renderExplainTree(result.explain)).toMatch(/\[run budget used: cost \$0\.000000 of \$0\.000500 \(0%\) · tokens 0 · time \d+\.\d{3} s\]/);
  }, 60_000);

  it('completes within the cap when the first tier answers, with the model call in the run budget', async () => {
    const result = await fixture.runtime.run({ goal: DEMO_QUESTION, constraints: { max_cost_usd: 0.0005, max_tokens: 20_000 } });
    expect(result.status).toBe('completed');
    expect(result.answer).toBe(ANSWER);
    // The LLM reranker grades with the first tier too: its batches and the answer are all in the run's total.
    const analyze = result.explain.analyze!;
    const last = Math.max(...analyze.nodes.map((node) => node.budget?.tokens ?? 0));
    expect(last).toBe(analyze.totals.actual.tokens);
    expect(analyze.nodes.find((node) => node.kind === 'reason')!.actual!.tokens).toBeGreaterThan(0);
  }, 60_000);

  it('max_latency_seconds aborts the model call in flight and ends the run within 100 ms of the deadline', async () => {
    cheap.reply({ delayMs: 30_000 });
    const before = cheap.calls.length;
    const result = await fixture.runtime.run({ goal: DEMO_QUESTION, constraints: { max_latency_seconds: 2 } });
    expect(result.explain.chosen.choice.modelTier).toBe('cheap');
    expect(result.status).toBe('failed');
    expect(result.error).toMatch(/max_latency_seconds: the run's 2 s deadline passed while node \S+ ran; its calls were aborted/);
    const call = cheap.calls[before];
    await until('the server to see the call end', () => call.ended !== undefined);
    expect(call.ended).toBe('aborted');
    const { spans } = await fixture.runtime.getRun(result.runId);
    const run = spans.find((span) => span.name === 'run')!;
    expect(run.durationMs - 2_000).toBeLessThan(100);
    // The fallback tier was never asked: the deadline, not the tier, failed.
    expect(premium.calls.filter((entry) => entry.arrivedAt > call.arrivedAt)).toEqual([]);
  }, 60_000);
});
