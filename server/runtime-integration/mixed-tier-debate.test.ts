/**
 * A debate whose solvers the planner routes to different tiers (issue 15, point 2: "each model
 * call routed independently"), through the whole runtime against two loopback OpenAI-compatible
 * tiers: under a cost cap the three-call debate on the strong tier cannot meet, the planner keeps
 * the strong judge and routes one solver to the fast tier; EXPLAIN says so on the candidate, the
 * chosen plan and each solver node; the solvers' calls reach different models; EXPLAIN ANALYZE has
 * an estimate and an actual per solver, each priced on its own tier.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_QUESTION } from '../ingest/demo-corpus';
import { renderExplainTree } from '../runtime/explain/explain-tree';
import type { ReasonNode } from '../runtime/ir/graph';
import { JUDGE_ANSWER_PROMPT } from '../runtime/reasoner/mixture-prompts';
import { startLoopbackOpenAIServer, type LoopbackOpenAIServer } from '../testing/loopback-openai-server';
import { openRuntimeFixture, type RuntimeFixture } from '../testing/runtime-fixture';
import { isSolverCall, scriptDebateModel, systemPromptOf } from '../testing/debate-calls';

/** Quality does not pay for cost or time here: the cap alone keeps the debate off three strong calls. */
const WEIGHTS = { cost: 0, lat: 0 };
/** An operator's measured debate gain: unmeasured, one shot wins (reasoner-gains.ts). */
const GAINS = { debate: { incident: 0.6 } };

let server: LoopbackOpenAIServer;
let fixture: RuntimeFixture;

describe('a mixed-tier debate planned over two loopback tiers', () => {
  beforeAll(async () => {
    server = await startLoopbackOpenAIServer();
    scriptDebateModel(server);
    const tier = (name: string, model: string, qualityPrior: number, inputUsd: number, outputUsd: number) => ({ name, provider: 'openai-compatible', base_url: server.baseURL, model, quality_prior: qualityPrior, input_usd_per_million: inputUsd, output_usd_per_million: outputUsd });
    fixture = await openRuntimeFixture({
      config: {
        models: { tiers: [tier('fast', 'loop-fast', 0.85, 0.5, 1.5), tier('strong', 'loop-strong', 0.9, 10, 30), { name: 'local', provider: 'extractive' }] },
        scheduler: { backoff_ms: 0 },
        learning: { enabled: false },
        costmodel: { reasoner_gains: GAINS },
      },
    });
  }, 600_000);

  afterAll(async () => {
    await fixture?.close();
    await server?.close();
  });

  it('routes the solvers to different models under a cap, and EXPLAIN shows each solver tier with estimate vs actual', async () => {
    const open = await fixture.runtime.explain({ goal: DEMO_QUESTION, weights: WEIGHTS });
    // Without a cap the debate is strong throughout: every call at the best quality prior. Under the cap
    // the strong judge keeps one strong solver (the judge weighs half the quality prior: call-tiers.ts).
    expect(open.chosen.choice).toMatchObject({ reasoning: 'debate', modelTier: 'strong' });
    expect(open.chosen.choice.solverTiers).toBeUndefined();
    const cap = open.chosen.estimates.costUsd.value * 0.85;

    const result = await fixture.runtime.run({ goal: DEMO_QUESTION, weights: WEIGHTS, constraints: { max_cost_usd: cap } });
    const { choice } = result.explain.chosen;
    expect(choice).toMatchObject({ reasoning: 'debate', modelTier: 'strong' });
    expect([...(choice.solverTiers ?? [])].sort()).toEqual(['fast', 'strong']);
    expect(result.explain.chosen.description).toMatch(/strong\/debate \(solvers on (fast, strong|strong, fast)\)/);
    expect(result.explain.chosen.estimates.costUsd.value).toBeLessThanOrEqual(cap);

    const solvers = result.explain.graph.nodes.filter((node): node is ReasonNode => node.kind === 'reason' && node.purpose === 'solver');
    expect(solvers.map((node) => node.tier)).toEqual(choice.solverTiers);
    const fastSolver = solvers.find((node) => node.tier === 'fast')!;
    const strongSolver = solvers.find((node) => node.tier === 'strong')!;
    expect(fastSolver.estimate!.costUsd).toBeLessThan(strongSolver.estimate!.costUsd / 5);

    // The solvers' calls reached the two models.
    const solverModels = server.requests.filter((request) => isSolverCall(request.body)).map((request) => String(request.body.model)).sort();
    expect(solverModels).toEqual(['loop-fast', 'loop-strong']);
    expect(server.requests.filter((request) => systemPromptOf(request.body) === JUDGE_ANSWER_PROMPT).map((request) => request.body.model)).toEqual(['loop-strong']);
    expect(result.status).toBe('completed');

    const analyzed = new Map((result.explain.analyze?.nodes ?? []).map((node) => [node.nodeId, node]));
    for (const solver of [fastSolver, strongSolver]) {
      const node = analyzed.get(solver.id)!;
      expect(node.status, solver.id).toBe('done');
      expect(node.estimate.costUsd, solver.id).toBeCloseTo(solver.estimate!.costUsd, 12);
      expect(node.actual?.costUsd, solver.id).toBeGreaterThan(0);
      expect(node.misestimate, solver.id).toBeDefined();
    }
    // Each actual is priced on the solver's own tier: the fast call costs a small share of the strong one.
    expect(analyzed.get(fastSolver.id)!.actual!.costUsd).toBeLessThan(analyzed.get(strongSolver.id)!.actual!.costUsd / 5);
    // The EXPLAIN tree names each solver's tier.
    const tree = renderExplainTree(result.explain);
    expect(tree).toContain(`Reason debate solver ${fastSolver.slot! + 1} tier=fast`);
    expect(tree).toContain(`Reason debate solver ${strongSolver.slot! + 1} tier=strong`);
  });
});
