/**
 * "Re-run an edited plan" on the real embedded database: a 200-node fan-out of the demo plan runs
 * to a cited answer, and edits that would widen the plan's policy envelope are refused by field.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_QUESTION } from '../ingest/demo-corpus';
import type { ContextRuntimeError } from '../runtime/errors';
import type { RetrievedOutput } from '../runtime/execution/node-executors';
import type { RunResult } from '../runtime/explain/explain-types';
import type { GraphNode } from '../runtime/ir/graph';
import { fanOutGraph, firstAttemptOf } from '../testing/fan-out-graph';
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

/** The base plan with a rerank node between its first retrieval and whatever else read that retrieval. */
function withRerank(method: string, topN: number) {
  const first = base.explain.graph.nodes.find((node) => node.kind === 'retrieve')!;
  // Retrievals keep their inputs: a feedback hop reads the retrieval itself.
  const rewired = base.explain.graph.nodes.map((node) => (node.kind === 'retrieve' ? node : { ...node, inputs: node.inputs.map((input) => (input === first.id ? 'rerank-1' : input)) }));
  return { first, graph: { version: 1, nodes: [...rewired, { id: 'rerank-1', kind: 'rerank', inputs: [first.id], method, topN }] } };
}

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

    const window = { from: '2025-06-03T09:00', to: '2025-06-03T10:00' };
    const unfiltered = await refusal(edit((node) => (node.kind === 'retrieve' ? { ...node, method: 'fulltext', within: [window] } : node)));
    expect(unfiltered.field).toMatch(/\.within$/);
    expect(unfiltered.message).toMatch(/retriever "fulltext" cannot search by time window \(methods that can: bm25\)/);
    const lookup = await refusal(edit((node) => (node.kind === 'retrieve' ? { ...node, method: 'fulltext', lookupOnly: true } : node)));
    expect(lookup.field).toMatch(/\.lookupOnly$/);
    expect(lookup.message).toMatch(/retriever "fulltext" cannot search lookup-only passages \(methods that can: bm25\)/);
    const unanchored = await refusal(edit((node) => (node.kind === 'retrieve' ? { ...node, method: 'bm25', within: [window], anchoredOn: 'verify' } : node)));
    expect(unanchored.field).toMatch(/\.anchoredOn$/);
    expect(unanchored.message).toMatch(/anchoredOn must name one of its retrieve\/fuse inputs/);
    const malformed = await refusal(edit((node) => (node.kind === 'retrieve' ? { ...node, method: 'bm25', within: [{ from: '9 am', to: window.to }] } : node)));
    expect(malformed.field).toMatch(/\.within\.0\.from$/);
    expect(malformed.message).toMatch(/expected yyyy-mm-ddThh:mm/);

    const withoutVerify = { version: 1, nodes: firstAttemptOf(base.explain.graph).filter((node) => node.kind !== 'verify') };
    expect((await refusal(withoutVerify)).field).toBe('graph.nodes.verify');

    const smuggled = await refusal(edit((node) => (node.kind === 'reason' ? ({ ...node, apiKey: 'x' } as GraphNode) : node)));
    expect(smuggled.field).toBe('graph.nodes.reason');
    expect(smuggled.message).toMatch(/apiKey/);

    const budget = await refusal(edit((node) => (node.kind === 'assemble' ? { ...node, tokenBudget: node.tokenBudget * 10 } : node)));
    expect(budget.field).toBe('graph.nodes.assemble.tokenBudget');

    const cycle = await refusal(edit((node) => (node.id === 'compress' ? { ...node, inputs: ['reason'] } : node)));
    expect(cycle.code).toBe('INVALID_GRAPH');
  });

  it('runs a rerank node through the linear Reranker plugin, with its actuals in EXPLAIN ANALYZE', async () => {
    const { first, graph } = withRerank('linear', 10);
    const run = await fixture.runtime.runEditedPlan({ goal: DEMO_QUESTION }, graph);
    expect(run.status).toBe('completed');
    expect(run.citations.length).toBeGreaterThan(0);
    const reranked = run.explain.analyze!.nodes.find((node) => node.nodeId === 'rerank-1')!;
    expect(reranked).toMatchObject({ kind: 'rerank', status: 'done' });
    expect(reranked.actual!.tokens).toBeGreaterThan(0);
    expect(reranked.actual!.costUsd).toBe(0);
    expect(reranked.actual).not.toHaveProperty('modelTokens');
    // The planner placed no rerank node: the estimate is the reranker's own latency, passing on the retrieval's evidence.
    const plannedFirst = base.explain.graph.nodes.find((node) => node.id === first.id)!;
    expect(reranked.estimate).toEqual({ tokens: plannedFirst.estimate!.tokens, costUsd: 0, latencySeconds: 0.004 });
    const consumers = run.explain.graph.nodes.filter((node) => node.inputs.includes('rerank-1'));
    expect(consumers.length).toBeGreaterThan(0);
    // Every hit the reranker passed on was retrieved by the node before it: it reorders, never adds or drops.
    const record = (await fixture.plugins.runStore.loadRun(run.runId))!;
    const retrieved = (record.nodeOutcomes.get(first.id)!.output as RetrievedOutput).hits;
    const passed = (record.nodeOutcomes.get('rerank-1')!.output as RetrievedOutput).hits;
    expect(passed.map((hit) => hit.chunkId).sort()).toEqual(retrieved.map((hit) => hit.chunkId).sort());
    expect(passed.map((hit) => [hit.rank, hit.method])).toEqual(passed.map((_, index) => [index + 1, 'linear']));
  }, 60_000);

  it('refuses a rerank node naming an unregistered reranker or a non-evidence input, naming the field', async () => {
    const unknown = await refusal(withRerank('nope', 10).graph);
    expect(unknown.code).toBe('INVALID_GRAPH');
    expect(unknown.field).toBe('graph.nodes.rerank-1.method');
    expect(unknown.message).toMatch(/reranker "nope" is not registered \(registered: linear\b/);

    const { graph } = withRerank('linear', 10);
    const misfed = await refusal({ ...graph, nodes: graph.nodes.map((node) => (node.id === 'rerank-1' ? { ...node, inputs: [] } : node)) });
    expect(misfed.field).toBe('graph.nodes.rerank-1.inputs');
  });
});
