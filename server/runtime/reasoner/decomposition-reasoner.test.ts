import { describe, expect, it } from 'vitest';
import { ROUTER_CONTRACT, type RouterPlugin } from '../contracts/router';
import type { ReasonRequest } from '../contracts/reasoner';
import { incidentContext } from '../../testing/incident-context-fixture';
import { createDecompositionReasoner } from './decomposition-reasoner';

const router = (answer: string): RouterPlugin => ({
  contract: ROUTER_CONTRACT,
  tiers: () => [],
  countTokens: (_tier, text) => text.length,
  complete: async (tier) => ({ text: answer, usage: { inputTokens: 100, outputTokens: 10 }, costUsd: 0, latencyMs: 1, modelId: 'fake', tier, fallbacks: [] }),
});

const request = (purpose?: 'bridge'): ReasonRequest => ({
  goal: 'What is the average snowfall in the city where the performers of Brother were formed?',
  context: incidentContext(),
  tier: 'local',
  requireCitations: true,
  localOnly: true,
  maxOutputTokens: 300,
  timeoutMs: 5_000,
  ...(purpose ? { purpose } : {}),
});

describe('decomposition reasoner', () => {
  const answer = '"Brother" is a song by the American rock band Pearl Jam [1]. Pearl Jam is a rock band formed in 1990 in Seattle [2].';

  it('declares its hop for the graph builder and two calls for the cost model', () => {
    expect(createDecompositionReasoner()).toMatchObject({ contract: 'reasoner/v1', strategy: 'decomposition', expectedModelCalls: 2, bridgeHops: 1 });
  });

  it('as a bridge hop, names what its cited answer holds beyond the question', async () => {
    const result = await createDecompositionReasoner().reason(request('bridge'), router(answer));
    expect(result.bridge).toEqual(['Pearl Jam', 'American']);
    expect(result.modelCalls).toHaveLength(1);
    expect(result.citations.map((citation) => citation.ref)).toEqual([1, 2]);
  });

  it('as the answer hop, answers as one cited call with no bridge, asking with the intermediate answer beside the question', async () => {
    const asked: string[] = [];
    const recording: RouterPlugin = { ...router(answer), complete: async (tier, modelRequest) => (asked.push(modelRequest.messages.at(-1)!.content), router(answer).complete(tier, modelRequest)) };
    const result = await createDecompositionReasoner().reason({ ...request(), bridge: ['Seattle'] }, recording);
    expect(result.answer).toBe(answer);
    expect(result).not.toHaveProperty('bridge');
    expect(asked[0]).toMatch(/^Question: What is the average snowfall in the city where the performers of Brother were formed\? \(intermediate answer: Seattle\)\n/);
  });
});
