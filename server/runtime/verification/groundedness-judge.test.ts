import { describe, expect, it } from 'vitest';
import type { ModelRequest } from '../contracts/model';
import { ROUTER_CONTRACT, type RouterPlugin, type TierInfo } from '../contracts/router';
import type { ContextItem } from '../types';
import { JUDGE_SYSTEM_PROMPT, judgeGroundedness, parseVerdict } from './groundedness-judge';

const capabilities = (provider: string) => ({ provider, modelId: provider, contextWindow: 8000, inputUsdPerMillion: 1, outputUsdPerMillion: 2, local: false, firstTokenSeconds: 0.1, secondsPerOutputToken: 0.01, qualityPrior: 0.8, maxOutputTokens: 500 });
const tiers: TierInfo[] = [{ name: 'model', rank: 0, capabilities: capabilities('openai'), available: true }, { name: 'local', rank: 1, capabilities: { ...capabilities('extractive'), local: true }, available: true }];
const item: ContextItem = { ref: 1, text: 'checkout-api was OOMKilled at 14:02 after the limit dropped to 256Mi.', tokens: 20, compressed: false, hit: { chunkId: 'c1', sourceName: 'logs', sourceKind: 'logs', title: 'pod events', text: 'checkout-api was OOMKilled at 14:02 after the limit dropped to 256Mi.', tokens: 20, score: 1, method: 'bm25' } as ContextItem['hit'] };

function router(reply: string, answeredBy = 'model'): RouterPlugin & { readonly seen: ModelRequest[] } {
  const seen: ModelRequest[] = [];
  return {
    contract: ROUTER_CONTRACT,
    seen,
    tiers: () => tiers,
    countTokens: (_tier, text) => text.length,
    async complete(_tier, request) {
      seen.push(request);
      return { text: reply, usage: { inputTokens: 100, outputTokens: 5 }, costUsd: 0.0001, latencyMs: 1, modelId: 'm', tier: answeredBy, fallbacks: [] };
    },
  };
}
const request = { goal: 'Why did checkout-api fail?', answer: 'It was OOMKilled at 14:03 [1].', context: [item], tier: 'model', localOnly: false, sensitiveSources: [], sensitiveContent: 'local_only' as const, timeoutMs: 1000 };

describe('the groundedness judge', () => {
  it('reads the verdict word; UNSUPPORTED is not taken for SUPPORTED', () => {
    expect(parseVerdict('UNSUPPORTED: the time is 14:02, not 14:03')).toEqual({ supported: false, reason: 'the time is 14:02, not 14:03' });
    expect(parseVerdict('Supported: all claims are in [1]')).toEqual({ supported: true, reason: 'all claims are in [1]' });
    expect(parseVerdict('I think it is fine').supported).toBeUndefined();
  });

  it('asks the tier with the context and the answer as quoted data, and fails the answer on UNSUPPORTED or no verdict', async () => {
    const unsupported = router('UNSUPPORTED: the time is 14:02');
    const verdict = await judgeGroundedness(request, unsupported);
    expect(unsupported.seen[0].messages[0]).toEqual({ role: 'system', content: JUDGE_SYSTEM_PROMPT });
    expect(unsupported.seen[0].messages[1].content).toContain('OOMKilled at 14:03 [1].');
    expect(verdict.check).toMatchObject({ name: 'llm_judge', passed: false, score: 0 });
    expect(verdict.call.costUsd).toBeGreaterThan(0);
    expect((await judgeGroundedness(request, router('Looks right to me'))).check.passed).toBe(false);
    expect((await judgeGroundedness(request, router('SUPPORTED'))).check.passed).toBe(true);
  });

  it('an extractive reader that answered after a fallback cannot judge: the checks before it stand', async () => {
    const verdict = await judgeGroundedness(request, router('checkout-api was OOMKilled [1].', 'local'));
    expect(verdict.check).toMatchObject({ passed: true, detail: expect.stringMatching(/no judge model answered/) });
  });
});
