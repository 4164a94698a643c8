/**
 * Model-tier fallback end to end: the planner picks a priced OpenAI-compatible tier (a real HTTP
 * loopback server), the server answers 500, and the router hands the call up the ladder to the
 * built-in extractive tier. The run still completes, and says so in its caveats and trace.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_QUESTION } from '../ingest/demo-corpus';
import { startLoopbackOpenAIServer, type LoopbackOpenAIServer } from '../testing/loopback-openai-server';
import { openRuntimeFixture, type RuntimeFixture } from '../testing/runtime-fixture';

let server: LoopbackOpenAIServer;
let fixture: RuntimeFixture;
let pricedRunId: string;

describe('tier fallback: openai-compatible (HTTP 500) → extractive', () => {
  beforeAll(async () => {
    server = await startLoopbackOpenAIServer({ status: 500 });
    fixture = await openRuntimeFixture({
      config: {
        models: {
          // Rank 0 is the bottom of the ladder; fallback only climbs, so the failing tier goes first.
          // quality_prior 0.9 (vs the extractive reader's 0.45) makes the planner choose it.
          tiers: [
            { name: 'cheap', provider: 'openai-compatible', base_url: server.baseURL, model: 'loop-1', quality_prior: 0.9, input_usd_per_million: 1, output_usd_per_million: 2 },
            { name: 'local', provider: 'extractive' },
          ],
        },
        scheduler: { backoff_ms: 0 },
        // The fallback is the subject here: no judge call beside the answering one, no retry attempt.
        verification: { judge: false, max_attempts: 1 },
      },
    });
  });

  afterAll(async () => {
    await fixture?.close();
    await server?.close();
  });

  it('plans onto the failing tier (precondition: otherwise fallback is never exercised)', async () => {
    const tiers = fixture.runtime.capabilities().tiers;
    expect(tiers.map((tier) => [tier.name, tier.rank, tier.available])).toEqual([
      ['cheap', 0, true],
      ['local', 1, true],
    ]);
    expect(tiers[0].capabilities.local).toBe(true);
    const explain = await fixture.runtime.explain({ goal: DEMO_QUESTION });
    expect(explain.chosen.choice.modelTier).toBe('cheap');
    expect(explain.estimates.costUsd.value).toBeGreaterThan(0);
  });

  it('completes through the extractive tier and reports the fallback in caveats and the model span', async () => {
    const requestsBefore = server.requests.length;
    const result = await fixture.runtime.run({ goal: DEMO_QUESTION });
    expect(result.status).toBe('completed');
    expect(result.answer?.trim().length ?? 0).toBeGreaterThan(0);
    expect(result.citations.length).toBeGreaterThan(0);
    expect(result.caveats.some((caveat) => /tier cheap failed.*HTTP 500.*answered by tier local/s.test(caveat))).toBe(true);
    // One HTTP attempt: the router, not the SDK or the scheduler, retries — by climbing.
    expect(server.requests.length - requestsBefore).toBe(1);
    expect(server.requests.at(-1)).toMatchObject({ method: 'POST', body: { model: 'loop-1' } });

    const { spans } = await fixture.runtime.getRun(result.runId);
    const model = spans.filter((span) => span.category === 'model');
    expect(model.map((span) => span.name)).toEqual(['model.local']);
    expect(model[0].attributes.fallbacks).toEqual([{ tier: 'cheap', error: expect.stringContaining('HTTP 500') }]);
    const reason = result.explain.analyze!.nodes.find((node) => node.kind === 'reason')!;
    expect(reason.status).toBe('done');
    expect(reason.actual!.costUsd).toBe(0);
  });

  it('uses and prices the tier once it answers again', async () => {
    server.reply({ status: 200, text: 'The checkout-api pods ran out of memory [1].', usage: { prompt_tokens: 1000, completion_tokens: 20 } });
    // An answer that cites one item for a goal about a deployment is not required to verify here: pricing is the subject.
    const result = await fixture.runtime.run({ goal: DEMO_QUESTION, constraints: { require_verification: false } });
    pricedRunId = result.runId;
    expect(result.status).toBe('completed');
    expect(result.answer).toBe('The checkout-api pods ran out of memory [1].');
    expect(result.caveats.some((caveat) => caveat.includes('tier cheap failed'))).toBe(false);
    const reason = result.explain.analyze!.nodes.find((node) => node.kind === 'reason')!;
    const expectedCost = (1000 * 1 + 20 * 2) / 1_000_000;
    expect(reason.actual!.costUsd).toBeCloseTo(expectedCost, 12);
    expect(reason.actual!.tokens).toBe(1020);
    const { spans } = await fixture.runtime.getRun(result.runId);
    const model = spans.find((span) => span.category === 'model')!;
    expect(model.name).toBe('model.cheap');
    expect(model.attributes).toMatchObject({ inputTokens: 1000, outputTokens: 20, fallbacks: [] });
    expect(model.costUsd).toBeCloseTo(expectedCost, 12);
    // The run is priced as the sum of its nodes: the answer's call, and any the plan's retrieval made
    // on the same tier (an LLM reranker, chosen once a priced tier with a high quality prior answers).
    const run = spans.find((span) => span.name === 'run')!;
    const nodeCosts = spans.filter((span) => span.name.startsWith('node.')).reduce((sum, span) => sum + span.costUsd, 0);
    expect(run.costUsd).toBeCloseTo(nodeCosts, 12);
    expect(run.costUsd).toBeGreaterThanOrEqual(expectedCost - 1e-12);
  });

  // Regression: the model span's tokens/cost columns were once written as 0.
  it('the model span carries the priced call in its tokens and costUsd columns', async () => {
    const { spans } = await fixture.runtime.getRun(pricedRunId);
    const model = spans.find((span) => span.category === 'model')!;
    expect(model.attributes.inputTokens).toBe(1000);
    expect(model.tokens).toBe(1020);
    expect(model.costUsd).toBeCloseTo((1000 * 1 + 20 * 2) / 1_000_000, 12);
  });
});
