/**
 * Traces out, end to end: a real runtime on a temp embedded database, configured to export to a
 * loopback OTLP collector and a loopback Langfuse, runs, explains, simulates and builds contexts; the real
 * exporters (@opentelemetry/exporter-trace-otlp-http, @langfuse/otel) send on close, and the
 * receivers decode what arrived: the span tree, the attributes, and no text of a sensitive run.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_QUESTION } from '../../ingest/demo-corpus';
import type { GoalContext } from '../../runtime';
import type { RunResult } from '../../runtime/explain/explain-types';
import { startOtlpReceiver, type OtlpReceiver, type ReceivedSpan } from '../../testing/loopback-otlp-receiver';
import { openRuntimeFixture, type RuntimeFixture } from '../../testing/runtime-fixture';

const LANGFUSE_PATH = '/api/public/otel/v1/traces';
// An email address makes the goal sensitive (policy: local tiers only): it must not leave.
const SENSITIVE_MARK = 'dana.sensitive@example.com';
const SENSITIVE_GOAL = `Explain why deployment checkout-api failed and mail ${SENSITIVE_MARK}`;

let collector: OtlpReceiver;
let langfuse: OtlpReceiver;
let fixture: RuntimeFixture | undefined;
let plain: RunResult;
let sensitive: RunResult;
let explainHash: string;
let built: GoalContext;
let sensitiveBuilt: GoalContext;

/** Demo sources with no chunk marked sensitive at ingest. */
const UNMARKED_SOURCES = ['demo-logs', 'demo-events', 'demo-docs', 'demo-metrics'];
const traceOf = (spans: readonly ReceivedSpan[], runId: string) => spans.filter((span) => span.traceId === runId.replace(/-/g, ''));

describe('OpenTelemetry export (OTLP/HTTP and Langfuse)', () => {
  beforeAll(async () => {
    collector = await startOtlpReceiver('/v1/traces');
    langfuse = await startOtlpReceiver(LANGFUSE_PATH);
    process.env.TEST_LANGFUSE_PK = 'pk-lf-test';
    process.env.TEST_LANGFUSE_SK = 'sk-lf-test';
    fixture = await openRuntimeFixture({
      config: {
        observability: {
          otlp: { endpoint: collector.url },
          langfuse: { base_url: langfuse.url, public_key_env: 'TEST_LANGFUSE_PK', secret_key_env: 'TEST_LANGFUSE_SK' },
        },
      },
    });
    // Not demo-git: its commits are marked sensitive at ingest (each names its author's email), which
    // keeps a plan over them local-only and its export redacted, as the sensitive run below checks.
    plain = await fixture.runtime.run({ goal: DEMO_QUESTION, sources: UNMARKED_SOURCES });
    sensitive = await fixture.runtime.run({ goal: SENSITIVE_GOAL });
    explainHash = (await fixture.runtime.explain({ goal: DEMO_QUESTION, sources: UNMARKED_SOURCES })).planHash;
    await fixture.runtime.simulate({ goal: DEMO_QUESTION, sources: UNMARKED_SOURCES });
    built = await fixture.runtime.contextFor({ goal: DEMO_QUESTION, sources: UNMARKED_SOURCES }, { tokenBudget: 1200 });
    sensitiveBuilt = await fixture.runtime.contextFor({ goal: SENSITIVE_GOAL }, { tokenBudget: 1200 });
    // Closing flushes the batch processors, as a CLI command does before it exits.
    await fixture.close();
    fixture = undefined;
  }, 240_000);

  afterAll(async () => {
    await fixture?.close();
    await collector?.close();
    await langfuse?.close();
    delete process.env.TEST_LANGFUSE_PK;
    delete process.env.TEST_LANGFUSE_SK;
  });

  it('sends a run as one trace: run → nodes → model call, with W3C ids and parent links', () => {
    expect(plain.status).toBe('completed');
    const spans = traceOf(collector.spans(), plain.runId);
    for (const span of spans) {
      expect(span.traceId).toMatch(/^[0-9a-f]{32}$/);
      expect(span.spanId).toMatch(/^[0-9a-f]{16}$/);
      expect(span.scope).toBe('context-runtime');
    }
    const byId = new Map(spans.map((span) => [span.spanId, span]));
    const run = spans.find((span) => span.name === 'run')!;
    expect(run.parentSpanId).toBeUndefined();
    expect(run.attributes['context_runtime.planHash']).toBe(plain.explain.planHash);
    expect(run.attributes['context_runtime.candidate']).toBe(plain.explain.chosen.id);
    expect(run.attributes['context_runtime.goal']).toBe(DEMO_QUESTION);
    for (const node of plain.explain.graph.nodes) {
      const span = spans.find((candidate) => candidate.name === `node.${node.id}`);
      expect(span, `node.${node.id}`).toBeDefined();
      expect(span!.parentSpanId).toBe(run.spanId);
      expect(span!.attributes['context_runtime.kind']).toBe(node.kind);
      if (node.estimate) expect(span!.attributes['context_runtime.estimatedTokens']).toBe(node.estimate.tokens);
      expect(typeof span!.attributes['context_runtime.actualLatencySeconds']).toBe('number');
    }
    const model = spans.find((span) => span.attributes['gen_ai.operation.name'] === 'chat')!;
    expect(byId.get(model.parentSpanId!)?.attributes['context_runtime.kind']).toBe('reason');
    expect(model.name).toBe(`chat ${model.attributes['gen_ai.request.model']}`);
    expect(model.attributes['gen_ai.provider.name']).toBe('extractive');
    expect(Number(model.attributes['gen_ai.usage.input_tokens'])).toBeGreaterThan(0);
    expect(Number(model.attributes['gen_ai.usage.output_tokens'])).toBeGreaterThan(0);
    // The planner's decision is its own root in the same trace, with the chosen candidate.
    const plan = spans.find((span) => span.name === 'plan')!;
    const chosen = spans.find((span) => span.name === 'planner.chosen')!;
    expect(chosen.parentSpanId).toBe(plan.spanId);
    expect(chosen.attributes['context_runtime.candidate']).toBe(plain.explain.chosen.id);
    expect(spans.filter((span) => span.parentSpanId === plan.spanId).map((span) => span.name)).toContain('planner.optimizer');
  });

  it("puts the AI SDK's own spans of a model call in the run's trace, beneath the node that made the call", () => {
    const spans = traceOf(collector.spans(), plain.runId);
    const byId = new Map(spans.map((span) => [span.spanId, span]));
    const generate = spans.filter((span) => span.name === 'ai.generateText');
    expect(generate.length, spans.map((span) => span.name).join(', ')).toBeGreaterThan(0);
    for (const call of generate) {
      const node = byId.get(call.parentSpanId!);
      expect(node?.name).toMatch(/^node\./);
      expect(node?.attributes['context_runtime.kind']).toBe('reason');
      // The SDK's inner span nests under its outer one, in the same trace.
      expect(spans.find((span) => span.name === 'ai.generateText.doGenerate' && span.parentSpanId === call.spanId)).toBeDefined();
    }
    // None of the SDK's spans of this run went off into a trace of its own.
    const sdkTraces = new Set(collector.spans().filter((span) => span.name.startsWith('ai.')).map((span) => span.traceId));
    const runtimeTraces = new Set(collector.spans().filter((span) => !span.name.startsWith('ai.')).map((span) => span.traceId));
    expect([...sdkTraces].filter((traceId) => !runtimeTraces.has(traceId))).toEqual([]);
  });

  it('traces build_context: the planning tree and the nodes that ran, with the runtime attributes', () => {
    const spans = collector.spans();
    const root = spans.find((span) => span.name === 'build_context' && span.attributes['context_runtime.planHash'] === built.planHash);
    expect(root, spans.map((span) => span.name).join(', ')).toBeDefined();
    expect(root!.parentSpanId).toBeUndefined();
    expect(root!.attributes).toMatchObject({
      'context_runtime.category': 'build_context',
      'context_runtime.goal': DEMO_QUESTION,
      'context_runtime.tokenBudget': 1200,
      'context_runtime.tokens': built.tokens,
      'context_runtime.passages': built.passages.length,
    });
    const children = spans.filter((span) => span.traceId === root!.traceId && span.parentSpanId === root!.spanId);
    expect(children.map((span) => span.name)).toEqual(expect.arrayContaining(['planner.intent', 'planner.plan_cache', 'planner.chosen']));
    const nodes = children.filter((span) => span.name.startsWith('node.'));
    expect(nodes.map((span) => span.attributes['context_runtime.kind'])).toEqual(expect.arrayContaining(['retrieve', 'assemble']));
    // The retrieval half of the plan only: no model wrote an answer.
    expect(nodes.map((span) => span.attributes['context_runtime.kind'])).not.toContain('reason');
    const retrieve = nodes.find((span) => span.attributes['context_runtime.kind'] === 'retrieve')!;
    expect(spans.filter((span) => span.parentSpanId === retrieve.spanId).map((span) => span.name).some((name) => name.startsWith('search.'))).toBe(true);
  });

  it('traces explain and simulate, which make no run', () => {
    const spans = collector.spans();
    for (const operation of ['explain', 'simulate']) {
      const root = spans.find((span) => span.name === operation);
      expect(root, operation).toBeDefined();
      expect(root!.attributes['context_runtime.planHash']).toBe(explainHash);
      expect(spans.filter((span) => span.traceId === root!.traceId && span.parentSpanId === root!.spanId).map((span) => span.name)).toContain('planner.chosen');
    }
    expect(spans.find((span) => span.name === 'simulate')!.attributes['context_runtime.estimator']).toBe('learned-v2');
  });

  it('exports no goal or passage text of a sensitive run', () => {
    expect(sensitive.explain.intent.classes).toContain('sensitive');
    const spans = traceOf(collector.spans(), sensitive.runId);
    expect(spans.find((span) => span.name === 'run')?.attributes['context_runtime.redacted']).toBe(true);
    const quotes = sensitive.citations.map((citation) => citation.quote.slice(0, 30)).filter((quote) => quote.length >= 20);
    for (const receiver of [collector, langfuse]) {
      const sent = receiver.requests.map((request) => request.body).join('\n');
      expect(sent).not.toContain(SENSITIVE_MARK);
      expect(sent).not.toContain('mail dana');
    }
    // The run answered from cited passages: there was passage text that could have leaked.
    expect(quotes.length).toBeGreaterThan(0);
    for (const quote of quotes) expect(collector.requests.map((request) => request.body).join('\n')).not.toContain(quote);
  });

  it('exports a sensitive build_context redacted: no goal, no passage text', () => {
    const root = collector.spans().find((span) => span.name === 'build_context' && span.attributes['context_runtime.planHash'] === sensitiveBuilt.planHash);
    expect(root?.attributes).toMatchObject({ 'context_runtime.redacted': true, 'context_runtime.sensitive': true, 'context_runtime.passages': sensitiveBuilt.passages.length });
    expect(root?.attributes['context_runtime.goal']).toBeUndefined();
    const sent = [...collector.requests, ...langfuse.requests].map((request) => request.body).join('\n');
    const texts = sensitiveBuilt.passages.map((passage) => passage.text.slice(0, 40)).filter((text) => text.length >= 20);
    expect(texts.length).toBeGreaterThan(0);
    for (const text of texts) expect(sent).not.toContain(text);
  });

  it('sends the same spans to Langfuse with its basic auth', () => {
    expect(langfuse.requests.length).toBeGreaterThan(0);
    expect(langfuse.requests[0].headers.authorization).toBe(`Basic ${Buffer.from('pk-lf-test:sk-lf-test').toString('base64')}`);
    const names = traceOf(langfuse.spans(), plain.runId).map((span) => span.name);
    expect(names).toEqual(expect.arrayContaining(['run', 'plan', 'planner.chosen', ...plain.explain.graph.nodes.map((node) => `node.${node.id}`)]));
    expect(langfuse.spans().some((span) => span.name === 'explain')).toBe(true);
  });
});
