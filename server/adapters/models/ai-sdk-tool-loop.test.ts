import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { TierConfig } from '../../runtime/config/config-schema';
import type { ModelRequest, ModelTool, StepAdmission } from '../../runtime/contracts/model';
import { ContextRuntimeError } from '../../runtime/errors';
import { startLoopbackOpenAIServer, type LoopbackOpenAIServer } from '../../testing/loopback-openai-server';
import { createModelPlugin } from './ai-sdk-model';
import { preloadTokenEncoder } from './token-counter';

let server: LoopbackOpenAIServer;
const executed: unknown[] = [];

const lookup: ModelTool = {
  name: 'retrieve',
  description: 'Search passages.',
  inputSchema: { type: 'object', properties: { query: { type: 'string' } }, required: ['query'] },
  async execute(input) {
    executed.push(input);
    return { passages: [{ ref: 2, text: 'The limit was lowered to 256Mi.' }] };
  },
};

const request = (maxSteps = 4): ModelRequest => ({
  messages: [
    { role: 'system', content: 'Answer with tools.' },
    { role: 'user', content: 'Why did checkout-api fail?' },
  ],
  maxOutputTokens: 100,
  timeoutMs: 5_000,
  toolLoop: { tools: [lookup], maxSteps, resultTokensPerStep: 500 },
});

const tier: TierConfig = { name: 'agent', provider: 'openai-compatible', model: 'agent-1', base_url: '', tools: true, input_usd_per_million: 2, output_usd_per_million: 10 };
const hasToolResult = (body: Record<string, unknown>) => (body.messages as { role: string }[]).some((message) => message.role === 'tool');

/** A scripted model: it searches while it is offered tools and has no result yet, then answers. */
const searchOnce = (body: Record<string, unknown>) =>
  Array.isArray(body.tools) && !hasToolResult(body) ? { text: '', toolCalls: [{ name: 'retrieve', arguments: { query: 'memory limit' } }], usage: { prompt_tokens: 50, completion_tokens: 10 } } : { text: 'It ran out of memory [2].', usage: { prompt_tokens: 80, completion_tokens: 6 } };

/** A run budget stand-in that records what it was asked and refuses what `refuse` says. */
function budget(refuse: (step: { promptTokens: number; maxOutputTokens: number }, index: number) => boolean) {
  const asked: { promptTokens: number; maxOutputTokens: number; refused: boolean }[] = [];
  const booked: unknown[] = [];
  const admitStep: StepAdmission = (step) => {
    const refused = refuse(step, asked.length);
    asked.push({ ...step, refused });
    if (refused) throw new ContextRuntimeError('BUDGET_EXCEEDED', `max_cost_usd: step ${asked.length} refused`, { field: 'constraints.max_cost_usd' });
    return (ended) => booked.push(ended);
  };
  return { admitStep, asked, booked };
}

beforeAll(async () => {
  preloadTokenEncoder();
  server = await startLoopbackOpenAIServer();
});
afterAll(() => server.close());
beforeEach(() => {
  executed.length = 0;
  server.script(searchOnce);
});

describe('tool loop through the AI SDK (OpenAI tool calls on the wire)', () => {
  it('runs the tool the model called, sends its result back as a tool message, and returns each step with its usage and cost', async () => {
    const before = server.requests.length;
    const result = await createModelPlugin({ ...tier, base_url: server.baseURL }, {}).complete(request());
    expect(executed).toEqual([{ query: 'memory limit' }]);
    const sent = server.requests.slice(before).map((entry) => entry.body);
    expect(sent).toHaveLength(2);
    expect(sent[0]).toMatchObject({ tools: [{ type: 'function', function: { name: 'retrieve' } }] });
    const tool = (sent[1].messages as { role: string; content: string; tool_call_id?: string }[]).find((message) => message.role === 'tool')!;
    expect(JSON.parse(tool.content)).toEqual({ passages: [{ ref: 2, text: 'The limit was lowered to 256Mi.' }] });
    expect(result.text).toBe('It ran out of memory [2].');
    expect(result.steps?.map((step) => [step.finish, step.toolCalls.map((call) => call.tool), step.usage])).toEqual([
      ['tool_calls', ['retrieve'], { inputTokens: 50, outputTokens: 10 }],
      ['answer', [], { inputTokens: 80, outputTokens: 6 }],
    ]);
    expect(result.usage).toMatchObject({ inputTokens: 130, outputTokens: 16 });
    expect(result.costUsd).toBeCloseTo((130 * 2 + 16 * 10) / 1e6, 12);
    expect(result.loopEnd).toEqual({ by: 'answer' });
  });

  it('admits every step before it is sent and books what it spent', async () => {
    const { admitStep, asked, booked } = budget(() => false);
    await createModelPlugin({ ...tier, base_url: server.baseURL }, {}).complete(request(), { admitStep });
    // Each step is priced with the answering step after it (twice the output allowance).
    expect(asked.map((step) => step.maxOutputTokens)).toEqual([200, 200]);
    expect(asked[1].promptTokens).toBeGreaterThan(asked[0].promptTokens);
    expect(booked).toEqual([
      { usage: { inputTokens: 50, outputTokens: 10 }, costUsd: (50 * 2 + 10 * 10) / 1e6 },
      { usage: { inputTokens: 80, outputTokens: 6 }, costUsd: (80 * 2 + 6 * 10) / 1e6 },
    ]);
  });

  it('a budget that holds no step after this one makes it the answering step: no tools offered, the loop ends by budget', async () => {
    // The two-step price is refused from the second step on; the step alone fits.
    const { admitStep, asked } = budget((step, index) => index > 0 && step.maxOutputTokens > 100);
    server.script((body) => (Array.isArray(body.tools) ? { text: '', toolCalls: [{ name: 'retrieve', arguments: { query: 'more' } }] } : { text: 'Out of memory [2].' }));
    const before = server.requests.length;
    const result = await createModelPlugin({ ...tier, base_url: server.baseURL }, {}).complete(request(), { admitStep });
    const sent = server.requests.slice(before).map((entry) => entry.body);
    expect(sent).toHaveLength(2);
    expect(sent[1].tools).toBeUndefined();
    expect(asked.map((step) => [step.maxOutputTokens, step.refused])).toEqual([[200, false], [200, true], [100, false]]);
    expect(result.text).toBe('Out of memory [2].');
    expect(result.loopEnd?.by).toBe('budget');
    expect(result.steps?.at(-1)).toMatchObject({ finish: 'answer', lastByBudget: true });
  });

  it('a step the budget refuses outright is never sent: the loop ends with what it has', async () => {
    const { admitStep } = budget((_step, index) => index > 0);
    server.script(() => ({ text: 'Looking it up.', toolCalls: [{ name: 'retrieve', arguments: { query: 'memory' } }] }));
    const before = server.requests.length;
    const result = await createModelPlugin({ ...tier, base_url: server.baseURL }, {}).complete(request(), { admitStep });
    expect(server.requests.length - before).toBe(1);
    expect(result.text).toBe('Looking it up.');
    expect(result.loopEnd).toEqual({ by: 'budget', refusal: 'max_cost_usd: step 3 refused' });
    expect(result.steps).toHaveLength(1);
  });

  it('a refused first step is the call refused: the typed budget error, and nothing sent', async () => {
    const { admitStep } = budget(() => true);
    const before = server.requests.length;
    await expect(createModelPlugin({ ...tier, base_url: server.baseURL }, {}).complete(request(), { admitStep })).rejects.toMatchObject({ code: 'BUDGET_EXCEEDED', field: 'constraints.max_cost_usd' });
    expect(server.requests.length).toBe(before);
  });

  it('the step at the cap is offered no tools, and the loop ends at the step cap', async () => {
    server.script((body) => (Array.isArray(body.tools) ? { text: '', toolCalls: [{ name: 'retrieve', arguments: { query: 'again' } }] } : { text: 'Out of memory [2].' }));
    const before = server.requests.length;
    const result = await createModelPlugin({ ...tier, base_url: server.baseURL }, {}).complete(request(2));
    expect(server.requests.length - before).toBe(2);
    expect(result.loopEnd).toEqual({ by: 'step_cap' });
    expect(result.text).toBe('Out of memory [2].');
  });

  it('a tier without tools: true answers in one call, offered no tools', async () => {
    server.script(() => ({ text: 'One call [1].' }));
    const before = server.requests.length;
    const result = await createModelPlugin({ ...tier, tools: undefined, base_url: server.baseURL }, {}).complete(request());
    const sent = server.requests.slice(before).map((entry) => entry.body);
    expect(sent).toHaveLength(1);
    expect(sent[0].tools).toBeUndefined();
    expect(result.steps).toBeUndefined();
    expect(executed).toEqual([]);
  });
});
