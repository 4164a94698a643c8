import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TierConfig } from '../../runtime/config/config-schema';
import type { ModelRequest } from '../../runtime/contracts/model';
import { buildContextPrompt } from '../../runtime/reasoner/context-prompt';
import { incidentContext, INCIDENT_QUESTION } from '../../testing/incident-context-fixture';
import { startLoopbackOpenAIServer, type LoopbackOpenAIServer } from '../../testing/loopback-openai-server';
import { createModelPlugin } from './ai-sdk-model';
import { PROVIDER_DEFAULTS } from './model-defaults';
import { countMessageTokens, countTokens, preloadTokenEncoder } from './token-counter';

const request: ModelRequest = {
  messages: [
    { role: 'system', content: 'Answer from the context.' },
    { role: 'user', content: 'Question: why?\n\nContext:\n[1] t — s\nbecause.' },
  ],
  maxOutputTokens: 200,
  timeoutMs: 5_000,
};

let server: LoopbackOpenAIServer;
beforeAll(async () => {
  // Startup work, as in the server: the ~1 s encoder build must not eat a test call's deadline.
  preloadTokenEncoder();
  server = await startLoopbackOpenAIServer();
});
afterAll(() => server.close());

const compatibleTier = (overrides: Partial<TierConfig> = {}): TierConfig => ({
  name: 'cheap',
  provider: 'openai-compatible',
  model: 'llama-3.1-8b',
  base_url: server.baseURL,
  input_usd_per_million: 2,
  output_usd_per_million: 10,
  ...overrides,
});

describe('AI SDK model plugin', () => {
  it('reaches an openai-compatible server through generateText and returns its text, usage and cost', async () => {
    server.reply({ text: 'The limit was lowered [1].', status: 200, delayMs: 0, usage: { prompt_tokens: 120, completion_tokens: 8 } });
    const before = server.requests.length;
    const model = createModelPlugin(compatibleTier(), {});
    const result = await model.complete(request);
    expect(result).toMatchObject({ text: 'The limit was lowered [1].', usage: { inputTokens: 120, outputTokens: 8 }, modelId: 'llama-3.1-8b', tier: 'cheap' });
    expect(result.costUsd).toBeCloseTo((120 * 2 + 8 * 10) / 1_000_000, 12);
    expect(result.latencyMs).toBeGreaterThanOrEqual(0);
    const sent = server.requests.slice(before);
    expect(sent).toHaveLength(1);
    expect(sent[0].path).toBe('/v1/chat/completions');
    expect(sent[0].body).toMatchObject({
      model: 'llama-3.1-8b',
      max_tokens: 200,
      temperature: 0,
      messages: [
        { role: 'system', content: 'Answer from the context.' },
        { role: 'user', content: request.messages[1].content },
      ],
    });
  });

  it("reports the provider's own prompt-cache reads (cached input tokens) beside the usage", async () => {
    server.reply({ text: 'Cached prefix [1].', status: 200, delayMs: 0, usage: { prompt_tokens: 1200, completion_tokens: 6, prompt_tokens_details: { cached_tokens: 1024 } } });
    const result = await createModelPlugin(compatibleTier(), {}).complete(request);
    expect(result.usage).toEqual({ inputTokens: 1200, outputTokens: 6, cachedInputTokens: 1024 });
  });

  it('counts tokens with tiktoken when the server reports no usage', async () => {
    server.reply({ text: 'No usage reported here.', usage: null });
    const result = await createModelPlugin(compatibleTier(), {}).complete(request);
    expect(result.usage).toEqual({ inputTokens: countMessageTokens(request.messages), outputTokens: countTokens('No usage reported here.') });
  });

  it('sends the configured API key and reports a provider error as MODEL_UNAVAILABLE with the status', async () => {
    server.reply({ status: 500 });
    const before = server.requests.length;
    const model = createModelPlugin(compatibleTier({ api_key_env: 'LOOPBACK_KEY' }), { LOOPBACK_KEY: 'sk-loopback' });
    const failure = await model.complete(request).catch((error: unknown) => error);
    expect(failure).toMatchObject({ code: 'MODEL_UNAVAILABLE', details: { tier: 'cheap', statusCode: 500 } });
    expect((failure as Error).message).toContain('HTTP 500');
    // maxRetries 0: one request, the router does the falling back.
    expect(server.requests.length - before).toBe(1);
    expect(server.requests.at(-1)?.headers.authorization).toBe('Bearer sk-loopback');
  });

  it('turns a server slower than timeout_ms into a TIMEOUT error', async () => {
    server.reply({ status: 200, delayMs: 10_000, text: 'late' });
    const model = createModelPlugin(compatibleTier({ timeout_ms: 150 }), {});
    const started = performance.now();
    await expect(model.complete(request)).rejects.toMatchObject({ code: 'TIMEOUT', details: { tier: 'cheap', timeoutMs: 150 } });
    // It gave up instead of waiting for the reply (generous bound for a loaded machine).
    expect(performance.now() - started).toBeLessThan(8_000);
    server.reply({ delayMs: 0 });
  });

  it('uses the request timeout when it is shorter than the tier timeout', async () => {
    server.reply({ delayMs: 2_000 });
    await expect(createModelPlugin(compatibleTier({ timeout_ms: 60_000 }), {}).complete({ ...request, timeoutMs: 100 })).rejects.toMatchObject({
      code: 'TIMEOUT',
      details: { timeoutMs: 100 },
    });
    server.reply({ delayMs: 0 });
  });

  it('speaks Chat Completions for provider openai, with the key from OPENAI_API_KEY', async () => {
    server.reply({ text: 'from openai', status: 200, usage: { prompt_tokens: 1000, completion_tokens: 100 } });
    const model = createModelPlugin({ name: 'premium', provider: 'openai', model: 'gpt-4.1-mini', base_url: server.baseURL }, { OPENAI_API_KEY: 'sk-openai' });
    const result = await model.complete(request);
    expect(result.text).toBe('from openai');
    expect(server.requests.at(-1)?.headers.authorization).toBe('Bearer sk-openai');
    const defaults = PROVIDER_DEFAULTS.openai;
    expect(result.costUsd).toBeCloseTo((1000 * defaults.inputUsdPerMillion + 100 * defaults.outputUsdPerMillion) / 1_000_000, 12);
  });

  it('reports a keyless provider tier unavailable with the missing variable, and refuses to call it', async () => {
    const model = createModelPlugin({ name: 'premium', provider: 'openai' }, {});
    expect(model.available).toBe(false);
    expect(model.unavailableReason).toBe('OPENAI_API_KEY is not set');
    await expect(model.complete(request)).rejects.toMatchObject({ code: 'MODEL_UNAVAILABLE' });
    expect(createModelPlugin({ name: 'p', provider: 'anthropic' }, {}).unavailableReason).toBe('ANTHROPIC_API_KEY is not set');
    expect(createModelPlugin({ name: 'p', provider: 'anthropic', api_key_env: 'MY_KEY' }, { MY_KEY: ' ' }).unavailableReason).toBe('MY_KEY is not set');
    expect(createModelPlugin({ name: 'p', provider: 'openai-compatible', model: 'm' }, {}).unavailableReason).toBe('openai-compatible tiers need base_url');
  });

  it('derives capabilities from the tier with per-provider defaults', () => {
    const local = createModelPlugin(compatibleTier(), {}).capabilities();
    expect(local).toMatchObject({ provider: 'openai-compatible', modelId: 'llama-3.1-8b', local: true, inputUsdPerMillion: 2, outputUsdPerMillion: 10 });
    const remote = createModelPlugin(compatibleTier({ base_url: 'https://api.together.xyz/v1' }), {}).capabilities();
    expect(remote.local).toBe(false);
    const anthropic = createModelPlugin({ name: 'p', provider: 'anthropic', context_window: 100_000, quality_prior: 0.9 }, { ANTHROPIC_API_KEY: 'k' }).capabilities();
    expect(anthropic).toMatchObject({ modelId: 'claude-haiku-4-5', contextWindow: 100_000, qualityPrior: 0.9, local: false, inputUsdPerMillion: 1, outputUsdPerMillion: 5 });
    const extractive = createModelPlugin({ name: 'local', provider: 'extractive' }, {});
    expect(extractive.available).toBe(true);
    expect(extractive.capabilities()).toMatchObject({ provider: 'extractive', modelId: 'extractive-v1', local: true, inputUsdPerMillion: 0, outputUsdPerMillion: 0 });
  });

  it('answers offline on the extractive tier through generateText, free of charge', async () => {
    const messages = buildContextPrompt(INCIDENT_QUESTION, incidentContext());
    const result = await createModelPlugin({ name: 'local', provider: 'extractive' }, {}).complete({ messages, maxOutputTokens: 400, timeoutMs: 5_000 });
    expect(result.text).toContain('256Mi is below peak heap during the nightly cart recalculation [4].');
    expect(result.usage.inputTokens).toBe(countMessageTokens(messages));
    expect(result.usage.outputTokens).toBe(countTokens(result.text));
    expect(result).toMatchObject({ costUsd: 0, modelId: 'extractive-v1', tier: 'local' });
  });
});
