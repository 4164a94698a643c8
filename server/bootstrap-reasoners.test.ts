import { describe, expect, it } from 'vitest';
import { reasonersFor } from './bootstrap';

const tier = (provider: string, available = true) => ({ available, capabilities: { provider } as never });

describe('reasoners registered by the bootstrap', () => {
  it('offers the mixtures only when an available tier other than the extractive reader is configured', () => {
    const strategies = (tiers: ReturnType<typeof tier>[]) => reasonersFor(tiers).map((reasoner) => reasoner.strategy);
    // Offline (no API key): the plans, answers and EXPLAIN of the default stay what they were.
    expect(strategies([tier('extractive')])).toEqual(['single_shot', 'decomposition']);
    expect(strategies([tier('extractive'), tier('openai', false)])).toEqual(['single_shot', 'decomposition']);
    expect(strategies([tier('extractive'), tier('openai-compatible')])).toEqual(['single_shot', 'decomposition', 'plan_worker_critic', 'debate']);
  });
});
