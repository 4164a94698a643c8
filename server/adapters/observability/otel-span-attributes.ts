/**
 * One runtime span → OpenTelemetry's shape: W3C ids derived from the runtime's UUIDs (so a child
 * flushed before its parent still points at it), the GenAI semantic conventions on model calls,
 * and the runtime's own attributes under `context_runtime.*`. A span of a sensitive run keeps
 * numbers, flags and identifiers only: no goal, passage, description or error text leaves.
 */
import { createHash } from 'node:crypto';
import type { Attributes, AttributeValue } from '@opentelemetry/api';
import { SENSITIVE_SPAN_ATTRIBUTE, type Span } from '../../runtime/contracts/trace-sink';

/** The instrumentation scope of every span the runtime exports. */
export const TRACER_NAME = 'context-runtime';
const PREFIX = 'context_runtime.';

/** Strings a sensitive run may still export: names and hashes the runtime made, never user text. */
const IDENTIFIER_KEYS = new Set(['kind', 'planHash', 'candidate', 'status', 'planCache', 'intent', 'source', 'modelId', 'tier', 'provider', 'estimator', 'cache']);

/** 32 hex digits: the run's UUID itself, so a trace id finds the run in the console and back. */
export function traceIdOf(runId: string): string {
  const hex = runId.replace(/-/g, '').toLowerCase();
  return /^[0-9a-f]{32}$/.test(hex) && !/^0+$/.test(hex) ? hex : createHash('sha256').update(runId).digest('hex').slice(0, 32);
}

/** 16 hex digits, a pure function of the runtime's span id (children name their parent by it). */
export function spanIdOf(spanId: string): string {
  return createHash('sha256').update(spanId).digest('hex').slice(0, 16);
}

const isSensitive = (span: Span) => span.attributes[SENSITIVE_SPAN_ATTRIBUTE] === true;

/** GenAI convention: "{operation} {model}" for a model call; the runtime's own name otherwise. */
export function otelNameOf(span: Span): string {
  return span.category === 'model' && typeof span.attributes.modelId === 'string' ? `chat ${span.attributes.modelId}` : span.name;
}

function attributeValue(value: unknown): AttributeValue | undefined {
  if (typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (Array.isArray(value) && value.every((item) => typeof item === 'string')) return value as string[];
  if (Array.isArray(value) && value.every((item) => typeof item === 'number')) return value as number[];
  if (value === undefined || value === null) return undefined;
  return JSON.stringify(value);
}

/** Model-call attributes by the OpenTelemetry GenAI semantic conventions. */
function genAiAttributes(span: Span): Attributes {
  if (span.category !== 'model') return {};
  const { modelId, provider, inputTokens, outputTokens, cachedInputTokens } = span.attributes;
  return {
    'gen_ai.operation.name': 'chat',
    ...(typeof modelId === 'string' ? { 'gen_ai.request.model': modelId, 'gen_ai.response.model': modelId } : {}),
    // gen_ai.provider.name is the current name; gen_ai.system the older one collectors still read.
    ...(typeof provider === 'string' ? { 'gen_ai.provider.name': provider, 'gen_ai.system': provider } : {}),
    ...(typeof inputTokens === 'number' ? { 'gen_ai.usage.input_tokens': inputTokens } : {}),
    ...(typeof outputTokens === 'number' ? { 'gen_ai.usage.output_tokens': outputTokens } : {}),
    // The provider's own prompt cache (experimental in the conventions; included in input_tokens).
    ...(typeof cachedInputTokens === 'number' ? { 'gen_ai.usage.cache_read.input_tokens': cachedInputTokens } : {}),
  };
}

export function otelAttributesOf(span: Span): Attributes {
  const sensitive = isSensitive(span);
  const attributes: Attributes = {
    [`${PREFIX}run_id`]: span.runId,
    [`${PREFIX}span_id`]: span.id,
    [`${PREFIX}category`]: span.category,
    [`${PREFIX}tokens`]: span.tokens,
    [`${PREFIX}cost_usd`]: span.costUsd,
    [`${PREFIX}duration_ms`]: span.durationMs,
    ...genAiAttributes(span),
  };
  for (const [key, raw] of Object.entries(span.attributes)) {
    if (sensitive && typeof raw !== 'number' && typeof raw !== 'boolean' && !IDENTIFIER_KEYS.has(key)) {
      attributes[`${PREFIX}redacted`] = true;
      continue;
    }
    const value = attributeValue(raw);
    if (value !== undefined) attributes[`${PREFIX}${key}`] = value;
  }
  return attributes;
}
