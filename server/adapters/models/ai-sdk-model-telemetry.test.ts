/**
 * AI SDK calls pass `experimental_telemetry` with the runtime's tracer when observability is on:
 * the SDK's own GenAI spans reach the span processors, beneath the runtime node the call runs in.
 * A local tier's prompts and answers (where sensitive passages may go) are not recorded; a
 * non-local tier's are.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import type { TierConfig } from '../../runtime/config/config-schema';
import { startLoopbackOpenAIServer, type LoopbackOpenAIServer } from '../../testing/loopback-openai-server';
import { withTraceParent } from '../../runtime/observability/trace-parent';
import { OtelSpanEmitter } from '../observability/otel-span-emitter';
import { spanIdOf, traceIdOf } from '../observability/otel-span-attributes';
import { createModelPlugin } from './ai-sdk-model';
import { preloadTokenEncoder } from './token-counter';

const PROMPT = 'Question: why did checkout-api fail?';
let server: LoopbackOpenAIServer;
const exporter = new InMemorySpanExporter();
const emitter = new OtelSpanEmitter([new SimpleSpanProcessor(exporter)]);

beforeAll(async () => {
  preloadTokenEncoder();
  server = await startLoopbackOpenAIServer();
});
afterAll(async () => {
  await emitter.shutdown();
  await server.close();
});

const tier = (local: boolean): TierConfig => ({ name: local ? 'local' : 'cheap', provider: 'openai-compatible', model: 'llama-3.1-8b', base_url: server.baseURL, local });

async function spansOfCall(local: boolean) {
  exporter.reset();
  server.reply({ text: 'The pool was exhausted [1].', status: 200, delayMs: 0, usage: { prompt_tokens: 50, completion_tokens: 6 } });
  await createModelPlugin(tier(local), {}, emitter).complete({ messages: [{ role: 'user', content: PROMPT }], maxOutputTokens: 50, timeoutMs: 5_000 });
  return exporter.getFinishedSpans();
}

describe('AI SDK telemetry', () => {
  it('emits the SDK GenAI spans through the configured tracer', async () => {
    const spans = await spansOfCall(false);
    const call = spans.find((span) => span.attributes['gen_ai.request.model'] === 'llama-3.1-8b');
    expect(call, spans.map((span) => span.name).join(', ')).toBeDefined();
    for (const span of spans) expect(span.spanContext()).toMatchObject({ traceId: expect.stringMatching(/^[0-9a-f]{32}$/), spanId: expect.stringMatching(/^[0-9a-f]{16}$/) });
    expect(call!.attributes['gen_ai.usage.input_tokens']).toBe(50);
    expect(call!.attributes['gen_ai.usage.output_tokens']).toBe(6);
    expect(JSON.stringify(spans.map((span) => span.attributes))).toContain(PROMPT);
  });

  it('starts the SDK spans under the runtime node the call runs in, in its run\'s trace', async () => {
    const runId = '2f1d8c4a-5b6e-4f70-8a91-b2c3d4e5f607';
    const spans = await withTraceParent({ runId, spanId: 'node-span-of-reason' }, () => spansOfCall(false));
    const outer = spans.find((span) => span.name === 'ai.generateText')!;
    const inner = spans.find((span) => span.name === 'ai.generateText.doGenerate')!;
    for (const span of [outer, inner]) expect(span.spanContext().traceId).toBe(traceIdOf(runId));
    expect(outer.parentSpanContext?.spanId).toBe(spanIdOf('node-span-of-reason'));
    expect(inner.parentSpanContext?.spanId).toBe(outer.spanContext().spanId);
    // Outside a traced node a call is a root of its own, with a fresh trace id.
    const [free] = (await spansOfCall(false)).filter((span) => span.name === 'ai.generateText');
    expect(free.parentSpanContext).toBeUndefined();
    expect(free.spanContext().traceId).not.toBe(traceIdOf(runId));
  });

  it('records no prompt or answer of a local tier', async () => {
    const spans = await spansOfCall(true);
    expect(spans.length).toBeGreaterThan(0);
    const recorded = JSON.stringify(spans.map((span) => span.attributes));
    expect(recorded).not.toContain(PROMPT);
    expect(recorded).not.toContain('The pool was exhausted');
  });
});
