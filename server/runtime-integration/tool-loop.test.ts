/**
 * Issue 15, point 2 (tool_loop) through the whole runtime against a loopback OpenAI server that
 * speaks tool calls on the wire: a scripted model calls `retrieve`, reads the passages the runtime
 * returned in its `role: "tool"` message, and answers citing one of them. The run's tools read only
 * what the run's principal may read; EXPLAIN ANALYZE shows the loop's steps; the trace has a span
 * per tool call; a model that never stops calling tools is stopped at the step cap.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DEMO_QUESTION } from '../ingest/demo-corpus';
import { renderExplainTree } from '../runtime/explain/explain-tree';
import type { RunResult } from '../runtime/explain/explain-types';
import type { Principal } from '../runtime/types';
import { startLoopbackOpenAIServer, type LoopbackOpenAIServer } from '../testing/loopback-openai-server';
import { openRuntimeFixture, type RuntimeFixture } from '../testing/runtime-fixture';

const VAULT = 'payroll-vault';
const VAULT_READER = 'payroll-reader';
const SECRET = 'zebra7731';
const OPERATOR: Principal = { user: 'operator@example.com', roles: ['operator'] };

let server: LoopbackOpenAIServer;
let fixture: RuntimeFixture;

type Message = { role: string; content?: unknown };
const messagesOf = (body: Record<string, unknown>) => (body.messages as Message[]) ?? [];
const toolResults = (body: Record<string, unknown>) => messagesOf(body).filter((message) => message.role === 'tool').map((message) => String(message.content));
/** The tool loop's calls (the LLM reranker calls the same tier with its own prompts). */
const isLoop = (body: Record<string, unknown>) => String(messagesOf(body)[0]?.content ?? '').includes('You may call the tools retrieve');
const loopRequests = (from: number) => server.requests.slice(from).map((request) => request.body).filter(isLoop);
/** The refs of the passages the runtime returned in the request's tool messages. */
const passageRefs = (body: Record<string, unknown>) => toolResults(body).flatMap((content) => [...content.matchAll(/\\?"ref\\?":\s*(\d+)/g)].map((match) => Number(match[1])));

/** A model that searches once (with the given input) and then answers citing the first passage it got. */
function searchThenAnswer(input: Record<string, unknown>) {
  server.script((body) => {
    if (!isLoop(body)) return undefined;
    if (toolResults(body).length === 0) return { text: '', toolCalls: [{ name: 'retrieve', arguments: input }] };
    const ref = passageRefs(body)[0];
    return { text: ref === undefined ? 'I found no evidence for it.' : `The checkout-api pods were OOMKilled [${ref}].` };
  });
}

async function runAs(principal: Principal): Promise<RunResult> {
  return fixture.runtime.run({ goal: DEMO_QUESTION, principal, weights: { lat: 0, cost: 0 } });
}

describe('tool_loop: the model calls the runtime tools', () => {
  beforeAll(async () => {
    server = await startLoopbackOpenAIServer({ text: 'unused' });
    fixture = await openRuntimeFixture({
      config: {
        verification: { default: false, judge: false },
        // Mixtures off: they are not the subject here.
        models: { mixtures: false, tiers: [{ name: 'agent', provider: 'openai-compatible', base_url: server.baseURL, model: 'agent-1', quality_prior: 0.8, tools: true }] },
        // A measured gain for tool_loop (the session-23 prior, now an operator's number): unmeasured, its gain is 0 and one shot wins (reasoner-gains.ts).
        costmodel: { reasoner_gains: { tool_loop: { incident: 0.15, conceptual: 0.15, exact_id: 0.15, multi_hop: 0.15, sensitive: 0.15, high_risk: 0.15 } } },
        policy: { source_roles: { [VAULT]: [VAULT_READER] } },
        scheduler: { backoff_ms: 0 },
        learning: { enabled: false },
        plan_cache: { enabled: false },
      },
    });
    const folder = join(fixture.root, VAULT);
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, 'bands.md'), `# Payroll vault\n\nThe checkout-api salary band is ${SECRET}.\n`);
    await fixture.runtime.ingest(folder, { source: VAULT });
  }, 120_000);

  afterAll(async () => {
    await fixture?.close();
    await server?.close();
  });

  beforeEach(() => server.script(null));

  it('plans tool_loop on the tier configured for tool calls', async () => {
    const explain = await fixture.runtime.explain({ goal: DEMO_QUESTION, principal: OPERATOR, weights: { lat: 0, cost: 0 } });
    expect(explain.chosen.choice.reasoning).toBe('tool_loop');
    expect(explain.graph.nodes.find((node) => node.kind === 'reason')).toMatchObject({ strategy: 'tool_loop', tier: 'agent' });
  }, 60_000);

  it('calls retrieve, then answers citing a passage the tool returned; EXPLAIN ANALYZE and the trace show each step and call', async () => {
    searchThenAnswer({ query: 'checkout-api OOMKilled memory limit' });
    const before = server.requests.length;
    const result = await runAs(OPERATOR);
    expect(result.status, result.error).toBe('completed');
    const sent = loopRequests(before);
    expect(sent).toHaveLength(2);
    // On the wire: the tools offered, then the tool's result sent back as a tool message.
    expect((sent[0].tools as { function: { name: string } }[]).map((entry) => entry.function.name).sort()).toEqual(['exact_lookup', 'knowledge_facts', 'retrieve']);
    const returned = passageRefs(sent[1]);
    expect(returned.length).toBeGreaterThan(0);
    const cited = result.citations.map((citation) => citation.ref);
    expect(cited).toEqual([returned[0]]);
    expect(result.citations[0].chunkId).not.toBe('');
    const reason = result.explain.analyze!.nodes.find((node) => node.kind === 'reason')!;
    expect(reason.toolLoop).toMatchObject({ maxSteps: 4, stepsEstimated: 2, end: 'answer' });
    expect(reason.toolLoop!.steps.map((step) => [step.tools, step.finish])).toEqual([[['retrieve'], 'tool_calls'], [[], 'answer']]);
    expect(reason.actual!.tokens).toBe(reason.toolLoop!.steps.reduce((sum, step) => sum + step.tokens, 0));
    expect(renderExplainTree(result.explain)).toMatch(/Reason tool_loop tier=agent .*\[tool loop: 2 of at most 4 steps \(est 2 steps × \d+ tokens \$\d\.\d{6}\): step 0 retrieve \d+ tokens \$\d\.\d{6} \d+ ms; step 1 answer \d+ tokens .*; ended by answer\]/);
    const { spans } = await fixture.runtime.getRun(result.runId);
    const toolSpans = spans.filter((span) => span.name.startsWith('tool.'));
    expect(toolSpans.map((span) => span.name)).toEqual(['tool.retrieve']);
    expect(toolSpans[0].attributes).toMatchObject({ passages: returned.length, step: 0 });
  }, 60_000);

  it('a source the principal may not read gives the tool nothing, named like a source that does not exist', async () => {
    searchThenAnswer({ query: 'checkout-api salary band', sources: [VAULT] });
    const before = server.requests.length;
    const result = await runAs(OPERATOR);
    const sent = loopRequests(before);
    const toolText = toolResults(sent[1]).join('\n');
    expect(toolText).toContain(`no readable source named \\"${VAULT}\\"`);
    expect(JSON.stringify(sent)).not.toContain(SECRET);
    expect(JSON.stringify(result)).not.toContain(SECRET);
    // A reader of the vault gets its passage through the same tool (so the absence above means something).
    searchThenAnswer({ query: 'checkout-api salary band', sources: [VAULT] });
    const readerBefore = server.requests.length;
    await fixture.runtime.run({ goal: 'What is the checkout-api salary band?', sources: [VAULT, 'demo-docs'], principal: { user: 'reader@example.com', roles: ['operator', VAULT_READER] }, weights: { lat: 0, cost: 0 } });
    expect(JSON.stringify(loopRequests(readerBefore))).toContain(SECRET);
  }, 60_000);

  it('a model that keeps calling tools is stopped at the step cap: the last step is offered no tools and answers', async () => {
    server.script((body) => (!isLoop(body) ? undefined : Array.isArray(body.tools) && body.tools.length > 0 ? { text: '', toolCalls: [{ name: 'exact_lookup', arguments: { identifier: 'OOMKilled' } }] } : { text: `Out of memory [${passageRefs(body)[0] ?? 1}].` }));
    const before = server.requests.length;
    const result = await runAs(OPERATOR);
    expect(result.status, result.error).toBe('completed');
    const sent = loopRequests(before);
    expect(sent).toHaveLength(4);
    expect(sent.slice(0, 3).every((body) => Array.isArray(body.tools))).toBe(true);
    expect(sent[3].tools).toBeUndefined();
    const loop = result.explain.analyze!.nodes.find((node) => node.kind === 'reason')!.toolLoop!;
    expect(loop.end).toBe('step_cap');
    expect(loop.steps).toHaveLength(4);
  }, 60_000);
});
