/**
 * The mixtures' sizes are configuration (`models.debate_solvers`, `models.mixture_workers`): a
 * three-solver debate is planned as three solver nodes, all three calls reach the model, and the
 * judge reads them. A size the reasoners cannot take is refused when the config is read.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_QUESTION } from '../ingest/demo-corpus';
import { parseConfig } from '../runtime/config/load-config';
import type { ReasonNode } from '../runtime/ir/graph';
import { startLoopbackOpenAIServer, type LoopbackOpenAIServer } from '../testing/loopback-openai-server';
import { openRuntimeFixture, type RuntimeFixture } from '../testing/runtime-fixture';
import { isSolverCall, scriptDebateModel } from '../testing/debate-calls';

let server: LoopbackOpenAIServer;
let fixture: RuntimeFixture;

describe('a debate sized by configuration', () => {
  beforeAll(async () => {
    server = await startLoopbackOpenAIServer();
    scriptDebateModel(server);
    fixture = await openRuntimeFixture({
      config: {
        models: {
          tiers: [{ name: 'model', provider: 'openai-compatible', base_url: server.baseURL, model: 'loop-1', quality_prior: 0.9 }, { name: 'local', provider: 'extractive' }],
          debate_solvers: 3,
        },
        scheduler: { backoff_ms: 0 },
        learning: { enabled: false },
        // An operator's measured debate gain: unmeasured, one shot wins (reasoner-gains.ts).
        costmodel: { reasoner_gains: { debate: { incident: 0.6 } } },
      },
    });
  }, 600_000);

  afterAll(async () => {
    await fixture?.close();
    await server?.close();
  });

  it('plans and runs three solvers and a judge that reads all three', async () => {
    const result = await fixture.runtime.run({ goal: DEMO_QUESTION, weights: { cost: 0, lat: 0 } });
    expect(result.explain.chosen.choice.reasoning).toBe('debate');
    const solvers = result.explain.graph.nodes.filter((node): node is ReasonNode => node.kind === 'reason' && node.purpose === 'solver' && !node.id.includes('retry'));
    expect(solvers.map((node) => node.slot)).toEqual([0, 1, 2]);
    const judge = result.explain.graph.nodes.find((node) => node.id === 'reason')!;
    expect(judge.inputs).toEqual(expect.arrayContaining(solvers.map((node) => node.id)));
    expect(server.requests.filter((request) => isSolverCall(request.body))).toHaveLength(3);
    expect(result.status).toBe('completed');
  });

  it('refuses a size the reasoners cannot take, naming the field', () => {
    const tiers = [{ name: 'local', provider: 'extractive' }];
    expect(() => parseConfig({ models: { tiers, debate_solvers: 1 } })).toThrow(/models\.debate_solvers/);
    expect(() => parseConfig({ models: { tiers, mixture_workers: 0 } })).toThrow(/models\.mixture_workers/);
  });
});
