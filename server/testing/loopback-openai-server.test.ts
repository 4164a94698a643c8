import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { jsonSchema, stepCountIs, streamText, tool } from 'ai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLoopbackOpenAIServer, type LoopbackOpenAIServer } from './loopback-openai-server';

let server: LoopbackOpenAIServer;
beforeAll(async () => {
  server = await startLoopbackOpenAIServer({ text: 'streamed answer from the loopback [2].' });
});
afterAll(() => server.close());

describe('loopback OpenAI server', () => {
  it('listens on 127.0.0.1 and answers non-streaming requests with choices and usage', async () => {
    expect(server.baseURL).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
    const response = await fetch(`${server.baseURL}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'one two three' }] }),
    });
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body.choices[0].message).toEqual({ role: 'assistant', content: 'streamed answer from the loopback [2].' });
    expect(body.usage).toEqual({ prompt_tokens: 3, completion_tokens: 6, total_tokens: 9 });
    expect(server.requests.at(-1)).toMatchObject({ method: 'POST', path: '/v1/chat/completions', body: { model: 'm' } });
  });

  it('streams Server-Sent Events that the AI SDK assembles into the same text and usage', async () => {
    const provider = createOpenAICompatible({ name: 'loopback', baseURL: server.baseURL, includeUsage: true });
    const result = streamText({ model: provider.chatModel('m'), prompt: 'hello there', maxRetries: 0 });
    const deltas: string[] = [];
    for await (const delta of result.textStream) deltas.push(delta);
    expect(deltas.join('')).toBe('streamed answer from the loopback [2].');
    expect(deltas.length).toBeGreaterThan(1);
    expect((await result.usage).outputTokens).toBe(6);
    expect(server.requests.at(-1)?.body).toMatchObject({ stream: true, stream_options: { include_usage: true } });
  });

  it('streams tool calls in pieces that the AI SDK assembles, runs, and answers after', async () => {
    const provider = createOpenAICompatible({ name: 'loopback', baseURL: server.baseURL, includeUsage: true });
    server.script((body) => ((body.messages as { role: string }[]).some((message) => message.role === 'tool') ? { text: 'It ran out of memory [1].' } : { text: '', toolCalls: [{ name: 'retrieve', arguments: { query: 'checkout-api memory limit' } }] }));
    const inputs: unknown[] = [];
    const retrieve = tool({ description: 'Search.', inputSchema: jsonSchema<{ query: string }>({ type: 'object', properties: { query: { type: 'string' } }, required: ['query'] }), execute: async (input) => (inputs.push(input), { passages: ['OOMKilled'] }) });
    const result = streamText({ model: provider.chatModel('m'), prompt: 'why?', tools: { retrieve }, stopWhen: stepCountIs(3), maxRetries: 0 });
    expect(await result.text).toBe('It ran out of memory [1].');
    expect(inputs).toEqual([{ query: 'checkout-api memory limit' }]);
    expect((await result.steps).map((step) => step.finishReason)).toEqual(['tool-calls', 'stop']);
    server.script(null);
  });

  it('varies text, delay and usage per request when given a vary function, and stops when it is removed', async () => {
    const seen: unknown[] = [];
    server.reply({ vary: (body) => (seen.push(body.model), { text: `reply to ${String(body.model)}`, delayMs: 30 }) });
    const post = (model: string) =>
      fetch(`${server.baseURL}/chat/completions`, { method: 'POST', body: JSON.stringify({ model, messages: [{ role: 'user', content: 'a b' }] }) }).then((response) => response.json());
    const started = performance.now();
    const body = await post('first');
    expect(performance.now() - started).toBeGreaterThanOrEqual(25);
    expect(body.choices[0].message.content).toBe('reply to first');
    expect(body.usage).toEqual({ prompt_tokens: 2, completion_tokens: 3, total_tokens: 5 });
    expect((await post('second')).choices[0].message.content).toBe('reply to second');
    expect(seen).toEqual(['first', 'second']);
    server.reply({ vary: undefined, text: 'plain' });
    expect((await post('third')).choices[0].message.content).toBe('plain');
  });

  it('answers a configured error status with an OpenAI error body, and 404 for other routes', async () => {
    server.reply({ status: 500 });
    const failed = await fetch(`${server.baseURL}/chat/completions`, { method: 'POST', body: '{}' });
    expect(failed.status).toBe(500);
    expect((await failed.json()).error.type).toBe('server_error');
    server.reply({ status: 200 });
    expect((await fetch(`${server.baseURL}/models`)).status).toBe(404);
  });
});
