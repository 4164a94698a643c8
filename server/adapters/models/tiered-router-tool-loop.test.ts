import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ModelRequest } from '../../runtime/contracts/model';
import { RunBudget } from '../../runtime/execution/run-budget';
import { startLoopbackOpenAIServer, type LoopbackOpenAIServer } from '../../testing/loopback-openai-server';
import { createRouterFromConfig } from './tiered-router';
import { preloadTokenEncoder } from './token-counter';

/**
 * The router hands a tool loop's admission to its steps: with a run budget, each step is priced
 * on its own prompt and booked, so the run's total is the loop's steps, and a cap the next step
 * would cross ends the loop with its answering step instead of a call over the cap.
 */
let server: LoopbackOpenAIServer;

const request: ModelRequest = {
  messages: [{ role: 'system', content: 'Use the tools.' }, { role: 'user', content: 'Why did checkout-api fail?' }],
  maxOutputTokens: 100,
  timeoutMs: 5_000,
  toolLoop: { tools: [{ name: 'retrieve', description: 'Search.', inputSchema: { type: 'object', properties: { query: { type: 'string' } } }, execute: async () => ({ passages: [{ ref: 1, text: 'OOMKilled at 256Mi.' }] }) }], maxSteps: 4, resultTokensPerStep: 200 },
};

beforeAll(async () => {
  preloadTokenEncoder();
  server = await startLoopbackOpenAIServer();
  // Searches while it is offered tools, answers when it is not.
  server.script((body) => (Array.isArray(body.tools) ? { text: '', toolCalls: [{ name: 'retrieve', arguments: { query: 'memory' } }], usage: { prompt_tokens: 400, completion_tokens: 20 } } : { text: 'Out of memory [1].', usage: { prompt_tokens: 600, completion_tokens: 10 } }));
});
afterAll(() => server.close());

const router = () => createRouterFromConfig([{ name: 'agent', provider: 'openai-compatible', model: 'agent-1', base_url: server.baseURL, tools: true, input_usd_per_million: 10, output_usd_per_million: 40 }], {});

describe('tiered router: a tool loop under a run budget', () => {
  it('books every step the loop ran in the run budget', async () => {
    const budget = new RunBudget({ maxCostUsd: 1 });
    const result = await router().complete('agent', request, { admit: budget.admission('reason') });
    expect(result.steps!.length).toBe(4);
    const stepsCost = result.steps!.reduce((sum, step) => sum + step.costUsd, 0);
    expect(budget.committed().costUsd).toBeCloseTo(stepsCost, 12);
    expect(result.costUsd).toBeCloseTo(stepsCost, 12);
  });

  it('under a cap that holds only some steps, ends with an answering step by budget and never crosses the cap', async () => {
    const cap = 0.015;
    const budget = new RunBudget({ maxCostUsd: cap });
    const before = server.requests.length;
    const result = await router().complete('agent', request, { admit: budget.admission('reason') });
    expect(result.loopEnd?.by).toBe('budget');
    expect(result.text).toBe('Out of memory [1].');
    expect(result.steps!.length).toBeLessThan(4);
    expect(server.requests.length - before).toBe(result.steps!.length);
    expect(budget.committed().costUsd).toBeLessThanOrEqual(cap);
    expect(budget.refusals.length).toBeGreaterThan(0);
  });
});
