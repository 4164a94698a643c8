import { describe, expect, it } from 'vitest';
import type { Span } from '../../runtime/contracts/trace-sink';
import { otelAttributesOf, otelNameOf, spanIdOf, traceIdOf } from './otel-span-attributes';

const span = (overrides: Partial<Span> = {}): Span => ({
  id: '9b2c6a2e-8d0f-4c57-9a43-0d8f3b9f6a11',
  runId: '2f1d8c4a-5b6e-4f70-8a91-b2c3d4e5f607',
  name: 'run',
  category: 'run',
  startedAt: '2026-12-01T10:00:00.000Z',
  endedAt: '2026-12-01T10:00:01.000Z',
  durationMs: 1000,
  tokens: 120,
  costUsd: 0.002,
  status: 'ok',
  attributes: { goal: 'why did checkout-api fail?', planHash: 'abc123', candidate: 'c3', rejected: 2, fallbacks: [{ tier: 'cheap', error: 'HTTP 500: passage text' }] },
  ...overrides,
});

describe('runtime span → OpenTelemetry attributes', () => {
  it('takes the run id as the W3C trace id and derives a stable 16-hex span id', () => {
    expect(traceIdOf(span().runId)).toBe('2f1d8c4a5b6e4f708a91b2c3d4e5f607');
    expect(traceIdOf('not-a-uuid')).toMatch(/^[0-9a-f]{32}$/);
    expect(spanIdOf(span().id)).toMatch(/^[0-9a-f]{16}$/);
    expect(spanIdOf(span().id)).toBe(spanIdOf(span().id));
    expect(spanIdOf(span().id)).not.toBe(spanIdOf(span().runId));
  });

  it('exports the runtime attributes under context_runtime.*, objects as JSON', () => {
    const attributes = otelAttributesOf(span());
    expect(attributes).toMatchObject({ 'context_runtime.goal': 'why did checkout-api fail?', 'context_runtime.planHash': 'abc123', 'context_runtime.rejected': 2, 'context_runtime.tokens': 120, 'context_runtime.cost_usd': 0.002 });
    expect(attributes['context_runtime.fallbacks']).toBe(JSON.stringify([{ tier: 'cheap', error: 'HTTP 500: passage text' }]));
  });

  it('names and describes a model call by the GenAI conventions', () => {
    const model = span({ name: 'model.local', category: 'model', attributes: { modelId: 'extractive-reader', provider: 'extractive', inputTokens: 900, outputTokens: 40 } });
    expect(otelNameOf(model)).toBe('chat extractive-reader');
    expect(otelAttributesOf(model)).toMatchObject({ 'gen_ai.operation.name': 'chat', 'gen_ai.request.model': 'extractive-reader', 'gen_ai.provider.name': 'extractive', 'gen_ai.usage.input_tokens': 900, 'gen_ai.usage.output_tokens': 40 });
  });

  it("reports the provider's prompt-cache reads by the GenAI conventions and the model-context cache's outcome, a sensitive run's too", () => {
    const model = span({ name: 'model.cheap', category: 'model', attributes: { modelId: 'loop-1', inputTokens: 1200, outputTokens: 6, cachedInputTokens: 1024, cache: 'miss', sensitive: true } });
    expect(otelAttributesOf(model)).toMatchObject({ 'gen_ai.usage.input_tokens': 1200, 'gen_ai.usage.cache_read.input_tokens': 1024, 'context_runtime.cache': 'miss', 'context_runtime.cachedInputTokens': 1024 });
  });

  it('keeps only numbers, flags and identifiers of a sensitive run', () => {
    const attributes = otelAttributesOf(span({ attributes: { ...span().attributes, sensitive: true, description: 'bm25 over hr-notes', error: 'quote: salary 90k' } }));
    expect(JSON.stringify(attributes)).not.toMatch(/checkout-api|passage text|hr-notes|salary/);
    expect(attributes).toMatchObject({ 'context_runtime.planHash': 'abc123', 'context_runtime.candidate': 'c3', 'context_runtime.rejected': 2, 'context_runtime.sensitive': true, 'context_runtime.redacted': true });
  });
});
