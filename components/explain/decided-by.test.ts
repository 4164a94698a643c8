import { describe, expect, it } from 'vitest';
import type { ExplainResult } from '@/server/runtime/explain/explain-types';
import { banditText, estimatorText } from './decided-by';

const costModel = { version: 'heuristic-v1', weights: {} } as ExplainResult['costModel'];
const fields = { costUsd: { samples: 0, group: 'prior' }, latencySeconds: { samples: 0, group: 'prior' }, tokens: { samples: 0, group: 'prior' }, accuracy: { samples: 0, group: 'prior' } } as const;

describe('decided-by text', () => {
  it('names the estimator and its samples, and says when the prior decided alone', () => {
    expect(estimatorText({ costModel })).toBe('heuristic-v1 (the heuristic alone)');
    const prior = { name: 'heuristic-v1', prior: 'heuristic-v1', samples: 0, fields, priorEstimates: {} } as unknown as ExplainResult['estimator'];
    expect(estimatorText({ costModel, estimator: prior })).toMatch(/no runs observed yet/);
    const learned = { ...prior!, name: 'learned-v2', samples: 12 };
    expect(estimatorText({ costModel, estimator: learned })).toBe('learned-v2 over the heuristic-v1 prior: 12 observed runs behind the least-observed estimate');
  });

  it('says whether the bandit kept the optimizer’s plan, on how many runs, and marks explorations', () => {
    expect(banditText({})).toBeUndefined();
    const learning = { arm: 'graph|local|single_shot', candidateId: 'c2', optimizerCandidateId: 'c1', samples: 3, estimate: { mean: 0.5, bonus: 0.1, upper: 0.6, lower: 0.4 }, explored: true, greedyArm: 'bm25|local|single_shot' } as unknown as ExplainResult['learning'];
    expect(banditText({ learning })).toBe('chose arm graph|local|single_shot over the optimizer’s plan (3 runs on this arm, estimate 0.500 ± 0.100) — an exploration (best lower bound was bm25|local|single_shot)');
    expect(banditText({ learning: { ...learning!, candidateId: 'c1', explored: false, samples: 1 } })).toBe('kept the optimizer’s plan (1 run on this arm, estimate 0.500 ± 0.100)');
  });
});
