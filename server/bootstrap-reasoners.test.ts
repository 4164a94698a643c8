import { describe, expect, it } from 'vitest';
import { reasonersFor } from './bootstrap';

const tier = (provider: string, available = true) => ({ available, capabilities: { provider } as never });

describe('reasoners registered by the bootstrap', () => {
  it('offers the mixtures only when an available tier other than the extractive reader is configured', () => {
    const strategies = (tiers: ReturnType<typeof tier>[]) => reasonersFor(tiers).map((reasoner) => reasoner.strategy);
    // Offline (no API key): the plans, answers and EXPLAIN of the default stay what they were (tool_loop is
    // registered but offered only on a tier with tools: true, which the offline default has not).
    expect(strategies([tier('extractive')])).toEqual(['single_shot', 'decomposition', 'tool_loop']);
    expect(strategies([tier('extractive'), tier('openai', false)])).toEqual(['single_shot', 'decomposition', 'tool_loop']);
    expect(strategies([tier('extractive'), tier('openai-compatible')])).toEqual(['single_shot', 'decomposition', 'tool_loop', 'plan_worker_critic', 'debate']);
  });
});
