/**
 * "Re-run an edited plan" on the real embedded database: a 200-node fan-out of the demo plan runs
 * to a cited answer, and edits that would widen the plan's policy envelope are refused by field.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_QUESTION } from '../ingest/demo-corpus';
import type { ContextRuntimeError } from '../runtime/errors';
import type { RunResult } from '../runtime/explain/explain-types';
import type { GraphNode } from '../runtime/ir/graph';
import { fanOutGraph } from '../testing/fan-out-graph';
import { openRuntimeFixture, type RuntimeFixture } from '../testing/runtime-fixture';

let fixture: RuntimeFixture;
let base: RunResult;

async function refusal(graph: unknown): Promise<ContextRuntimeError> {
  try {
    await fixture.runtime.runEditedPlan({ goal: DEMO_QUESTION }, graph);
  } catch (error) {
    return error as ContextRuntimeError;
  }
  throw new Error('expected the edited plan to be refused');
}

const edit = (update: (node: GraphNode) => GraphNode) => ({ version: 1, nodes: base.explain.graph.nodes.map(update) });

describe('edited plans (embedded PGlite)', () => {
  beforeAll(async () => {
    fixture = await openRuntimeFixture();
    base = await fixture.runtime.run({ goal: DEMO_QUESTION });
  });

  afterAll(async () => {
    await fixture?.close();
  });

  it('runs a 200-node fan-out to a cited answer, with actuals for every node and planner estimates', async () => {
    const observationsBefore = await fixture.count('cost_observations');
    const graph = fanOutGraph(base.explain.graph, 200);
    expect(graph.nodes).toHaveLength(200);
    const run = await fixture.runtime.runEditedPlan({ goal: DEMO_QUESTION }, graph);
    expect(run.status).toBe('completed');
    expect(run.citations.length).toBeGreaterThan(0);
    expect(run.explain.graph.nodes).toHaveLength(200);
    expect(run.explain.edited).toEqual({ basePlanHash: base.explain.planHash, plannerNodes: base.explain.graph.nodes.length, nodes: 200 });
    expect(run.explain.planHash).not.toBe(base.explain.planHash);
    expect(run.explain.analyze!.nodes.filter((node) => node.status === 'done')).toHaveLength(200);
    // The caller sent no estimates; every retrieval carries the planner's retrieval estimate.
    const plannedRetrieve = base.explain.graph.nodes.find((node) => node.kind === 'retrieve')!;
    expect(run.explain.graph.nodes.find((node) => node.kind === 'retrieve')!.estimate!.tokens).toBe(plannedRetrieve.estimate!.tokens);
    expect(run.explain.tokenBudget.bySource?.length ?? 0).toBeGreaterThan(0);
    // Edited runs are not evidence about the planner's candidate: the cost model does not learn from them.
    expect(await fixture.count('cost_observations')).toBe(observationsBefore);
    const reloaded = await fixture.runtime.getRun(run.runId);
    expect(reloaded.run.explain.graph.nodes).toHaveLength(200);
  }, 120_000);

  it('refuses sources outside the plan, unknown methods, a dropped verify node and unknown fields, naming the field', async () => {
    const outside = await refusal(edit((node) => (node.kind === 'retrieve' ? { ...node, sources: ['payroll'] } : node)));
    expect(outside.code).toBe('INVALID_GRAPH');
    expect(outside.field).toMatch(/^graph\.nodes\.retrieve-.*\.sources$/);

    const method = await refusal(edit((node) => (node.kind === 'retrieve' ? { ...node, method: 'telepathy' } : node)));
    expect(method.field).toMatch(/\.method$/);
    expect(method.message).toMatch(/not registered/);

    const withoutVerify = { version: 1, nodes: base.explain.graph.nodes.filter((node) => node.kind !== 'verify') };
    expect((await refusal(withoutVerify)).field).toBe('graph.nodes.verify');

    const smuggled = await refusal(edit((node) => (node.kind === 'reason' ? ({ ...node, apiKey: 'x' } as GraphNode) : node)));
    expect(smuggled.field).toBe('graph.nodes.reason');
    expect(smuggled.message).toMatch(/apiKey/);

    const budget = await refusal(edit((node) => (node.kind === 'assemble' ? { ...node, tokenBudget: node.tokenBudget * 10 } : node)));
    expect(budget.field).toBe('graph.nodes.assemble.tokenBudget');

    const cycle = await refusal(edit((node) => (node.id === 'compress' ? { ...node, inputs: ['reason'] } : node)));
    expect(cycle.code).toBe('INVALID_GRAPH');
  });
});
