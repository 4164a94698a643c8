import { describe, expect, it } from 'vitest';
import type { ModelRequest } from '../contracts/model';
import type { ReasoningTools, ReasonRequest } from '../contracts/reasoner';
import { ROUTER_CONTRACT, type RoutedResult, type RouterPlugin, type TierInfo } from '../contracts/router';
import { incidentContext, INCIDENT_QUESTION } from '../../testing/incident-context-fixture';
import type { Hit } from '../types';
import { createToolLoopReasoner } from './tool-loop-reasoner';

const hit = (chunkId: string, sourceName: string, text: string, sensitive = false): Hit => ({ chunkId, sourceName, sourceKind: 'docs', sourceVersionId: 'v1', title: chunkId, text, score: 1, rank: 1, method: 'bm25', tokens: 20, ...(sensitive ? { sensitive } : {}) });

/** Tools over a fixed passage list: what each search was asked, and the passages it returns. */
function fakeTools(hits: readonly Hit[]) {
  const asked: unknown[] = [];
  const tools: ReasoningTools = {
    sources: ['runbooks'],
    async search(query) {
      asked.push(query);
      return { items: hits, unknownSources: (query.sources ?? []).filter((name) => name !== 'runbooks') };
    },
    async facts(query) {
      asked.push(query);
      return { items: [{ subject: query.entity, attribute: 'memory_limit', value: '256Mi', sourceName: 'runbooks' }], unknownSources: [] };
    },
  };
  return { tools, asked };
}

const tier = (local: boolean): TierInfo => ({ name: 'agent', rank: 0, available: true, capabilities: { provider: 'openai', modelId: 'agent-1', contextWindow: 100_000, inputUsdPerMillion: 1, outputUsdPerMillion: 2, local, firstTokenSeconds: 0.5, secondsPerOutputToken: 0.01, qualityPrior: 0.8, maxOutputTokens: 1000, toolCalls: true } });

/** A router whose "model" makes the given tool calls in one step, then answers from what it was handed. */
function scriptedRouter(local: boolean, calls: readonly { name: string; input: unknown }[], answer: (results: unknown[]) => string) {
  const requests: ModelRequest[] = [];
  const router: RouterPlugin = {
    contract: ROUTER_CONTRACT,
    tiers: () => [tier(local)],
    countTokens: (_tier, text) => text.length,
    async complete(name, request) {
      requests.push(request);
      const results: unknown[] = [];
      for (const call of calls) results.push(await request.toolLoop!.tools.find((entry) => entry.name === call.name)!.execute(call.input, { step: 0 }));
      const usage = { inputTokens: 100, outputTokens: 10 };
      const steps = [{ step: 0, usage, costUsd: 0, latencyMs: 1, toolCalls: calls.map((call) => ({ tool: call.name, input: call.input })), finish: 'tool_calls' as const }, { step: 1, usage, costUsd: 0, latencyMs: 1, toolCalls: [], finish: 'answer' as const }];
      const result: RoutedResult = { text: answer(results), usage: { inputTokens: 200, outputTokens: 20 }, costUsd: 0, latencyMs: 2, modelId: 'agent-1', tier: name, fallbacks: [], steps, loopEnd: { by: 'answer' } };
      return result;
    },
  };
  return { router, requests };
}

const request = (tools: ReasoningTools, overrides: Partial<ReasonRequest> = {}): ReasonRequest => ({ goal: INCIDENT_QUESTION, context: incidentContext(), tier: 'agent', requireCitations: true, localOnly: false, maxOutputTokens: 300, timeoutMs: 5_000, tools, ...overrides });
const refsOf = (result: unknown) => ((result as { passages?: { ref: number }[] }).passages ?? []).map((passage) => passage.ref);

describe('tool_loop reasoner', () => {
  it('numbers the passages its tools return after the context, and cites them from the answer', async () => {
    const { tools, asked } = fakeTools([hit('new-1', 'runbooks', 'Raise the limit to 512Mi.')]);
    const { router, requests } = scriptedRouter(false, [{ name: 'retrieve', input: { query: 'memory limit fix' } }], (results) => `Raise the limit [${refsOf(results[0])[0]}].`);
    const result = await createToolLoopReasoner().reason(request(tools), router);
    const next = incidentContext().length + 1;
    expect(asked).toEqual([{ how: 'retrieve', text: 'memory limit fix', k: 4 }]);
    expect(result.citations).toEqual([expect.objectContaining({ ref: next, chunkId: 'new-1', sourceName: 'runbooks' })]);
    expect(result.toolLoop).toMatchObject({ maxSteps: 4, end: { by: 'answer' }, toolCalls: [{ step: 0, tool: 'retrieve', refs: [next], facts: 0 }] });
    expect(requests[0].toolLoop!.tools.map((entry) => entry.name)).toEqual(['retrieve', 'exact_lookup', 'knowledge_facts']);
    expect(requests[0].messages[0].content).toContain('Sources you may search: runbooks.');
  });

  it('answers a bad tool input with an error naming the field, and refuses calls past the per-step limit', async () => {
    const { tools, asked } = fakeTools([]);
    const calls = [{ name: 'retrieve', input: { query: '' } }, ...Array.from({ length: 4 }, () => ({ name: 'knowledge_facts', input: { entity: 'checkout-api' } }))];
    const { router } = scriptedRouter(false, calls, (results) => JSON.stringify(results));
    const result = await createToolLoopReasoner().reason(request(tools), router);
    const results = JSON.parse(result.answer) as { error?: string; facts?: unknown[] }[];
    expect(results[0].error).toBe('retrieve: "query" must be a non-empty string');
    expect(results.slice(1, 3).every((entry) => entry.facts?.length === 1)).toBe(true);
    expect(results[3].error).toMatch(/at most 3 tool calls per step/);
    expect(asked).toHaveLength(2);
  });

  it('holds back a sensitive passage a tool found from a non-local tier, and counts it', async () => {
    const { tools } = fakeTools([hit('secret-1', 'runbooks', 'password=hunter2 for the db', true), hit('plain-1', 'runbooks', 'Restart the pod.')]);
    const { router } = scriptedRouter(false, [{ name: 'retrieve', input: { query: 'db' } }], (results) => JSON.stringify(results));
    const result = await createToolLoopReasoner().reason(request(tools), router);
    expect(result.answer).not.toContain('hunter2');
    expect(result.answer).toContain('Restart the pod.');
    expect(result.sensitivePassages).toEqual({ withheld: 1, redacted: 0 });
  });

  it('keeps the whole loop on a local tier: local only, the sensitive passage read locally', async () => {
    const { tools } = fakeTools([hit('secret-1', 'runbooks', 'password=hunter2 for the db', true)]);
    const { router } = scriptedRouter(true, [{ name: 'retrieve', input: { query: 'db' } }], (results) => JSON.stringify(results));
    const completions: unknown[] = [];
    const spying: RouterPlugin = { ...router, complete: (name, request, options) => (completions.push(options), router.complete(name, request, options)) };
    const result = await createToolLoopReasoner().reason(request(tools), spying);
    expect(completions).toEqual([{ localOnly: true }]);
    expect(result.answer).toContain('hunter2');
  });

  it('refuses to run without the run tools, and a step cap below one', async () => {
    const { router } = scriptedRouter(false, [], () => 'x');
    await expect(createToolLoopReasoner().reason({ ...request(fakeTools([]).tools), tools: undefined }, router)).rejects.toThrow(/given no tools/);
    expect(() => createToolLoopReasoner({ maxSteps: 0 })).toThrow(/maxSteps/);
  });
});
