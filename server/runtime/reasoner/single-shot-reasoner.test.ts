import { describe, expect, it } from 'vitest';
import type { ModelRequest } from '../contracts/model';
import { ROUTER_CONTRACT, type RoutedResult, type RouterPlugin } from '../contracts/router';
import type { ReasonRequest } from '../contracts/reasoner';
import { incidentContext, INCIDENT_QUESTION } from '../../testing/incident-context-fixture';
import { createSingleShotReasoner } from './single-shot-reasoner';

/** A router that answers with a fixed text and records what it was asked. */
function fakeRouter(answer: string) {
  const calls: { tier: string; request: ModelRequest; options?: { localOnly?: boolean } }[] = [];
  const router: RouterPlugin = {
    contract: ROUTER_CONTRACT,
    tiers: () => [],
    countTokens: (_tier, text) => text.length,
    async complete(tier, request, options) {
      calls.push({ tier, request, options });
      const result: RoutedResult = { text: answer, usage: { inputTokens: 500, outputTokens: 40 }, costUsd: 0, latencyMs: 3, modelId: 'fake', tier, fallbacks: [] };
      return result;
    },
  };
  return { router, calls };
}

const request = (overrides: Partial<ReasonRequest> = {}): ReasonRequest => ({
  goal: INCIDENT_QUESTION,
  context: incidentContext(),
  tier: 'local',
  requireCitations: true,
  localOnly: true,
  maxOutputTokens: 300,
  timeoutMs: 5_000,
  ...overrides,
});

describe('single-shot reasoner', () => {
  it('makes one routed call with the context prompt and reads citations from the answer', async () => {
    const { router, calls } = fakeRouter('  The memory limit was lowered to 256Mi [2] and the pods were OOMKilled [1].  ');
    const reasoner = createSingleShotReasoner();
    expect(reasoner).toMatchObject({ strategy: 'single_shot', expectedModelCalls: 1, contract: 'reasoner/v1' });
    const result = await reasoner.reason(request(), router);
    expect(calls).toHaveLength(1);
    expect(calls[0].tier).toBe('local');
    expect(calls[0].options).toEqual({ localOnly: true });
    expect(calls[0].request.maxOutputTokens).toBe(300);
    expect(calls[0].request.timeoutMs).toBe(5_000);
    expect(calls[0].request.messages[1].content).toContain('[4] commit 8b41e07');
    expect(result.answer).toBe('The memory limit was lowered to 256Mi [2] and the pods were OOMKilled [1].');
    expect(result.citations.map((citation) => citation.ref)).toEqual([2, 1]);
    expect(result.modelCalls).toHaveLength(1);
    expect(result.modelCalls[0].modelId).toBe('fake');
  });

  it('does not invent citations for an uncited answer, even when citations are required', async () => {
    const { router } = fakeRouter('The pods ran out of memory.');
    const result = await createSingleShotReasoner().reason(request({ requireCitations: true }), router);
    expect(result.answer).toBe('The pods ran out of memory.');
    expect(result.citations).toEqual([]);
  });

  it('passes localOnly=false through and rejects an empty goal', async () => {
    const { router, calls } = fakeRouter('x [1]');
    await createSingleShotReasoner().reason(request({ localOnly: false, tier: 'premium' }), router);
    expect(calls[0]).toMatchObject({ tier: 'premium', options: { localOnly: false } });
    await expect(createSingleShotReasoner().reason(request({ goal: '  ' }), router)).rejects.toMatchObject({ code: 'INVALID_INPUT', field: 'goal' });
  });
});
