import { describe, expect, it } from 'vitest';
import type { ModelRequest } from '../contracts/model';
import { ROUTER_CONTRACT, type RoutedResult, type RouterPlugin } from '../contracts/router';
import type { ReasonRequest } from '../contracts/reasoner';
import { incidentContext, INCIDENT_QUESTION } from '../../testing/incident-context-fixture';
import { createDebateReasoner } from './debate-reasoner';
import { createPlanWorkerCriticReasoner } from './plan-worker-critic-reasoner';

/** A router that answers every call with `reply(request)` and records the calls. */
function fakeRouter(reply: (request: ModelRequest) => string) {
  const calls: { request: ModelRequest; localOnly?: boolean }[] = [];
  const router: RouterPlugin = {
    contract: ROUTER_CONTRACT,
    tiers: () => [],
    countTokens: (_tier, text) => text.length,
    async complete(tier, request, options) {
      calls.push({ request, localOnly: options?.localOnly });
      return { text: reply(request), usage: { inputTokens: 100, outputTokens: 10 }, costUsd: 0, latencyMs: 1, modelId: 'fake', tier, fallbacks: [] } satisfies RoutedResult;
    },
  };
  return { router, calls };
}

const request = (overrides: Partial<ReasonRequest> = {}): ReasonRequest => ({
  goal: INCIDENT_QUESTION, context: incidentContext(), tier: 'model', requireCitations: true, localOnly: false, maxOutputTokens: 300, timeoutMs: 5_000, ...overrides,
});

describe('plan_worker_critic', () => {
  const reasoner = createPlanWorkerCriticReasoner(3);

  it('declares its fan-out and calls for the cost model and the graph builder', () => {
    expect(reasoner).toMatchObject({ strategy: 'plan_worker_critic', expectedModelCalls: 6, needsInstructions: true, mixture: { layout: 'plan_worker_critic', branches: 3 } });
    expect(() => createPlanWorkerCriticReasoner(0)).toThrow(/workers/);
  });

  it('decompose sends only the question and returns the sub-questions; a reply with none leaves the goal as the one sub-question', async () => {
    const { router, calls } = fakeRouter(() => '1. What failed in checkout-api?\n2. Why did it fail?');
    const planned = await reasoner.reason(request({ purpose: 'decompose' }), router);
    expect(planned.subQuestions).toEqual(['What failed in checkout-api?', 'Why did it fail?']);
    expect(calls[0].request.messages.map((message) => message.content).join('\n')).not.toContain(incidentContext()[0].text.slice(0, 40));
    const fallback = await reasoner.reason(request({ purpose: 'decompose' }), fakeRouter(() => 'ok').router);
    expect(fallback.subQuestions).toEqual([INCIDENT_QUESTION]);
  });

  it('the critic fails an uncited finding without asking, and asks the model about the cited ones', async () => {
    const { router, calls } = fakeRouter(() => '2: UNGROUNDED — the figure differs');
    const citation = { ref: 1, chunkId: 'c1', sourceName: 'logs', quote: 'OOMKilled' };
    const result = await reasoner.reason(request({ purpose: 'critic', context: [], findings: [
      { slot: 0, question: 'What failed?', answer: 'Something failed.', citations: [] },
      { slot: 1, question: 'Why?', answer: 'Out of memory [1].', citations: [citation] },
      { slot: 2, question: 'When?', answer: 'At noon [1].', citations: [citation] },
    ] }), router);
    expect(calls).toHaveLength(1);
    expect(calls[0].request.messages[1].content).not.toContain('Something failed');
    expect(result.critique).toEqual([
      { slot: 0, grounded: false, critique: 'cites no evidence' },
      { slot: 1, grounded: false, critique: 'the figure differs' },
      { slot: 2, grounded: true, critique: 'the critic gave no verdict; it cites evidence' },
    ]);
  });

  it('a critic whose evidence holds a secret stays on local tiers', async () => {
    const { router, calls } = fakeRouter(() => '1: GROUNDED');
    await reasoner.reason(request({ purpose: 'critic', context: [], findings: [{ slot: 0, question: 'Which key?', answer: 'The key [1].', citations: [{ ref: 1, chunkId: 'c', sourceName: 'docs', quote: 'password=hunter2-secret-value AKIAIOSFODNN7EXAMPLE' }] }] }), router);
    expect(calls[0].localOnly).toBe(true);
  });

  it('merges over the numbered context with the output schema, citing the context', async () => {
    const { router, calls } = fakeRouter(() => 'The pods ran out of memory [1].');
    const result = await reasoner.reason(request({ outputSchema: { type: 'string' }, findings: [{ slot: 0, question: 'Why?', answer: 'Memory [2].', citations: [], grounded: true }] }), router);
    expect(result.citations.map((citation) => citation.ref)).toEqual([1]);
    expect(calls[0].request.outputSchema).toEqual({ type: 'string' });
    expect(calls[0].request.messages[1].content).toContain('- Why? → Memory.');
  });
});

describe('debate', () => {
  it('has at least two solvers, each answering with its slot angle; the judge reads them', async () => {
    expect(() => createDebateReasoner(1)).toThrow(/2 solvers/);
    const reasoner = createDebateReasoner(2);
    expect(reasoner).toMatchObject({ strategy: 'debate', expectedModelCalls: 3, mixture: { layout: 'debate', branches: 2 } });
    const { router, calls } = fakeRouter(() => 'Memory [1].');
    const solved = await reasoner.reason(request({ purpose: 'solver', slot: 1 }), router);
    expect(solved.citations).toHaveLength(1);
    await reasoner.reason(request({ findings: [{ slot: 0, question: '', answer: 'Memory [1].', citations: [] }] }), router);
    expect(calls[1].request.messages[1].content).toContain('Solver 1:');
  });
});
