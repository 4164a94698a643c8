import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { TierConfig } from '../../runtime/config/config-schema';
import type { ModelRequest } from '../../runtime/contracts/model';
import type { RouterPlugin } from '../../runtime/contracts/router';
import { buildContextPrompt } from '../../runtime/reasoner/context-prompt';
import { incidentContext, INCIDENT_QUESTION } from '../../testing/incident-context-fixture';
import { startLoopbackOpenAIServer, type LoopbackOpenAIServer } from '../../testing/loopback-openai-server';
import { createRouterFromConfig } from './tiered-router';
import { countTokens, preloadTokenEncoder } from './token-counter';
import { RunBudget } from '../../runtime/execution/run-budget';

const request: ModelRequest = { messages: buildContextPrompt(INCIDENT_QUESTION, incidentContext()), maxOutputTokens: 300, timeoutMs: 5_000 };

let edge: LoopbackOpenAIServer;
let cheap: LoopbackOpenAIServer;
let premium: LoopbackOpenAIServer;
let router: RouterPlugin;

beforeAll(async () => {
  // Startup work, as in the server: the ~1 s encoder build must not eat a test call's deadline.
  preloadTokenEncoder();
  [edge, cheap, premium] = await Promise.all([
    startLoopbackOpenAIServer({ text: 'edge answer [1].' }),
    startLoopbackOpenAIServer({ text: 'cheap answer [1].' }),
    startLoopbackOpenAIServer({ text: 'premium answer [1].' }),
  ]);
  // The ladder: a local LLM on this machine, the built-in reader, then hosted tiers (one with no key).
  const tiers: TierConfig[] = [
    { name: 'edge', provider: 'openai-compatible', model: 'qwen2.5-3b', base_url: edge.baseURL },
    { name: 'local', provider: 'extractive' },
    { name: 'cheap', provider: 'openai-compatible', model: 'cheap-model', base_url: cheap.baseURL, local: false, timeout_ms: 1_500 },
    { name: 'hosted', provider: 'openai' },
    { name: 'premium', provider: 'openai-compatible', model: 'premium-model', base_url: premium.baseURL, local: false, input_usd_per_million: 3, output_usd_per_million: 15 },
  ];
  router = createRouterFromConfig(tiers, {});
});
afterAll(() => Promise.all([edge.close(), cheap.close(), premium.close()]));

const counts = () => ({ edge: edge.requests.length, cheap: cheap.requests.length, premium: premium.requests.length });
const callsSince = (before: ReturnType<typeof counts>) => {
  const now = counts();
  return { edge: now.edge - before.edge, cheap: now.cheap - before.cheap, premium: now.premium - before.premium };
};

beforeEach(() => {
  for (const server of [edge, cheap, premium]) server.reply({ status: 200, delayMs: 0, usage: { prompt_tokens: 900, completion_tokens: 12 } });
});

describe('tiered router', () => {
  it('lists the tiers in config order with availability and capabilities', () => {
    const tiers = router.tiers();
    expect(tiers.map((tier) => [tier.name, tier.rank, tier.available, tier.capabilities.local])).toEqual([
      ['edge', 0, true, true],
      ['local', 1, true, true],
      ['cheap', 2, true, false],
      ['hosted', 3, false, false],
      ['premium', 4, true, false],
    ]);
    expect(tiers[3].unavailableReason).toBe('OPENAI_API_KEY is not set');
    expect(tiers[0].unavailableReason).toBeUndefined();
  });

  it('answers from the requested tier when it works, with no fallbacks', async () => {
    const before = counts();
    const result = await router.complete('cheap', request);
    expect(result).toMatchObject({ text: 'cheap answer [1].', tier: 'cheap', modelId: 'cheap-model', fallbacks: [] });
    expect(callsSince(before)).toEqual({ edge: 0, cheap: 1, premium: 0 });
  });

  it('falls back from a cheap tier answering 500 to premium, skipping the keyless tier, and records why', async () => {
    cheap.reply({ status: 500 });
    const before = counts();
    const result = await router.complete('cheap', request);
    expect(result).toMatchObject({ text: 'premium answer [1].', tier: 'premium', usage: { inputTokens: 900, outputTokens: 12 } });
    expect(result.costUsd).toBeCloseTo((900 * 3 + 12 * 15) / 1_000_000, 12);
    expect(result.fallbacks).toHaveLength(1);
    expect(result.fallbacks[0].tier).toBe('cheap');
    expect(result.fallbacks[0].error).toMatch(/^MODEL_UNAVAILABLE: .*HTTP 500/);
    expect(callsSince(before)).toEqual({ edge: 0, cheap: 1, premium: 1 });
  });

  it('falls back when a tier hangs past its timeout_ms', async () => {
    // 1.5 s, not less: a loaded 2-core CI machine must not turn a healthy loopback reply into a timeout.
    cheap.reply({ delayMs: 8_000 });
    const started = performance.now();
    const result = await router.complete('cheap', request);
    expect(performance.now() - started).toBeLessThan(6_000);
    expect(result.tier).toBe('premium');
    expect(result.fallbacks).toEqual([{ tier: 'cheap', error: expect.stringMatching(/^TIMEOUT: .*within 1500 ms/) }]);
  });

  it('with localOnly falls back only to local tiers and never calls a hosted one', async () => {
    edge.reply({ status: 503 });
    const before = counts();
    const result = await router.complete('edge', request, { localOnly: true });
    expect(result.tier).toBe('local');
    expect(result.modelId).toBe('extractive-v1');
    expect(result.text).toContain('[4]');
    expect(result.fallbacks.map((fallback) => fallback.tier)).toEqual(['edge']);
    expect(callsSince(before)).toEqual({ edge: 1, cheap: 0, premium: 0 });
  });

  it('with localOnly refuses a non-local tier without calling anything', async () => {
    const before = counts();
    await expect(router.complete('cheap', request, { localOnly: true })).rejects.toMatchObject({ code: 'MODEL_UNAVAILABLE' });
    expect(callsSince(before)).toEqual({ edge: 0, cheap: 0, premium: 0 });
  });

  it('records an unavailable requested tier and moves up', async () => {
    const result = await router.complete('hosted', request);
    expect(result.tier).toBe('premium');
    expect(result.fallbacks).toEqual([{ tier: 'hosted', error: expect.stringContaining('OPENAI_API_KEY is not set') }]);
  });

  it('never falls back down, and lists every failure when all tiers up the ladder fail', async () => {
    cheap.reply({ status: 500 });
    premium.reply({ status: 502 });
    const before = counts();
    const failure = await router.complete('cheap', request).catch((error: unknown) => error);
    expect(failure).toMatchObject({ code: 'MODEL_UNAVAILABLE' });
    expect((failure as Error).message).toMatch(/cheap: MODEL_UNAVAILABLE: .*HTTP 500.*premium: MODEL_UNAVAILABLE: .*HTTP 502/);
    expect((failure as { details: { failures: unknown[] } }).details.failures).toHaveLength(2);
    expect(callsSince(before)).toEqual({ edge: 0, cheap: 1, premium: 1 });
  });

  it('rejects an unknown tier as invalid input and counts tokens per tier', async () => {
    await expect(router.complete('gold', request)).rejects.toMatchObject({ code: 'INVALID_INPUT', field: 'tier' });
    expect(router.countTokens('local', 'hello world')).toBe(countTokens('hello world'));
    expect(() => router.countTokens('gold', 'x')).toThrow(/unknown model tier "gold"/);
  });

  it('rejects a ladder with a duplicated tier name', () => {
    expect(() => createRouterFromConfig([{ name: 'a', provider: 'extractive' }, { name: 'a', provider: 'extractive' }], {})).toThrow(/configured twice/);
  });

  it('asks the run budget before every tier: a fallback to a pricier tier it cannot afford never starts', async () => {
    cheap.reply({ status: 500 });
    const budget = new RunBudget({ maxCostUsd: 0.001 });
    const before = counts();
    const failure = await router.complete('cheap', request, { admit: budget.admission('reason') }).catch((error: unknown) => error);
    expect(failure).toMatchObject({ code: 'BUDGET_EXCEEDED', field: 'constraints.max_cost_usd', details: { tier: 'premium', limit: 0.001 } });
    expect((failure as Error).message).toMatch(/^max_cost_usd: the call to model tier "premium" at node reason was refused before it started/);
    // cheap was asked (and refused with HTTP 500: nothing billed, nothing booked), premium never was.
    expect(callsSince(before)).toEqual({ edge: 0, cheap: 1, premium: 0 });
    expect(budget.committed()).toEqual({ costUsd: 0, tokens: 0 });
  });

  it('books what an admitted call used, so the next call is priced against it', async () => {
    // Room for one call's worst case (prompt + 300 output tokens) and the first call's 912 used, less one token.
    const worst = countTokens(request.messages.map((message) => message.content).join('\n')) + 4 * request.messages.length + request.maxOutputTokens;
    const budget = new RunBudget({ maxTokens: worst + 912 - 1 });
    await router.complete('premium', request, { admit: budget.admission('reason') });
    expect(budget.committed()).toEqual({ costUsd: (900 * 3 + 12 * 15) / 1_000_000, tokens: 912 });
    await expect(router.complete('premium', request, { admit: budget.admission('reason') })).rejects.toMatchObject({ code: 'BUDGET_EXCEEDED', field: 'constraints.max_tokens' });
  });
});
