import { describe, expect, it } from 'vitest';
import type { NodeOutcome, ScheduleResult } from '../contracts/scheduler';
import { RunBudget } from '../execution/run-budget';
import type { ExecutionGraph, GraphNode } from '../ir/graph';
import { budgetSettled } from './budget-settled';

const graph = {
  version: 1,
  nodes: [
    { id: 'reason', kind: 'reason', inputs: [], strategy: 'single_shot', tier: 't', requireCitations: true, localOnly: false, maxOutputTokens: 100 },
    { id: 'verify', kind: 'verify', inputs: ['reason'], method: 'citation' },
  ],
} as unknown as ExecutionGraph;
const done: NodeOutcome = { output: { answer: 'a', citations: [], modelCalls: [] }, actual: { tokens: 10, costUsd: 0, latencySeconds: 0.1 } };
const node = (id: string) => graph.nodes.find((entry) => entry.id === id) as GraphNode;

/** A budget whose deadline has passed, and the refusal it raised when `nodeId` tried to start. */
async function refusedAt(nodeId: string): Promise<{ budget: RunBudget; message: string }> {
  let now = 0;
  const budget = new RunBudget({ maxLatencySeconds: 1 }, undefined, () => now);
  now = 1_001;
  const error = await budget.runNode(node(nodeId), new AbortController().signal, async () => done).catch((caught: Error) => caught);
  return { budget, message: (error as Error).message };
}

describe('how a run its budget stopped ends', () => {
  it('completes with the answer and a caveat naming the limit when the refused node came after the answer', async () => {
    const { budget, message } = await refusedAt('verify');
    const result: ScheduleResult = { status: 'failed', nodeId: 'verify', error: message, outcomes: new Map([['reason', done]]) };
    const settled = budgetSettled(result, budget, graph);
    expect(settled.status).toBe('completed');
    expect(settled.status === 'completed' && settled.budgetCaveat).toBe(`The run's budget stopped it after the answer: ${message}. Node verify and the steps after it did not run.`);
    expect(message).toMatch(/^max_latency_seconds: /);
  });

  it('fails when there is no answer yet', async () => {
    const { budget, message } = await refusedAt('reason');
    const result: ScheduleResult = { status: 'failed', nodeId: 'reason', error: message, outcomes: new Map() };
    expect(budgetSettled(result, budget, graph)).toBe(result);
  });

  it('leaves a failure that was not the budget’s as it is, answer or not', async () => {
    const { budget } = await refusedAt('verify');
    const result: ScheduleResult = { status: 'failed', nodeId: 'verify', error: 'verifier crashed', outcomes: new Map([['reason', done]]) };
    expect(budgetSettled(result, budget, graph)).toBe(result);
  });
});
