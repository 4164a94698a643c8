/**
 * Issue 12, finding 1: an operator's edited plan can neither drop nor move the approval gate or the
 * verification of a high-risk goal. The first case is the attack as reported: `compensation:
 * "approve"` on a retrieval took the gate out of the forward pass and the run completed with an
 * answer and no approver (it does on the code before this change).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ContextRuntimeError } from '../runtime/errors';
import type { ExplainResult } from '../runtime/explain/explain-types';
import type { GraphNode } from '../runtime/ir/graph';
import { openRuntimeFixture, type RuntimeFixture } from '../testing/runtime-fixture';

const HIGH_RISK_GOAL = 'Roll back the production deployment of checkout-api and delete the failed replica set';
let fixture: RuntimeFixture;
let planned: ExplainResult;

const edit = (update: (node: GraphNode) => GraphNode) => ({ version: 1, nodes: planned.graph.nodes.map(update) });

async function outcome(graph: unknown): Promise<{ status?: string; answer?: string; error?: ContextRuntimeError }> {
  try {
    const run = await fixture.runtime.runEditedPlan({ goal: HIGH_RISK_GOAL }, graph);
    return { status: run.status, answer: run.answer };
  } catch (error) {
    return { error: error as ContextRuntimeError };
  }
}

describe('edited plans keep their gates (embedded PGlite)', () => {
  beforeAll(async () => {
    fixture = await openRuntimeFixture();
    planned = await fixture.runtime.explain({ goal: HIGH_RISK_GOAL });
  });

  afterAll(async () => {
    await fixture?.close();
  });

  it('the plan as planned pauses at its approval gate (the edit path itself works)', async () => {
    const kinds = planned.graph.nodes.map((node) => node.kind);
    expect(kinds).toEqual(expect.arrayContaining(['approve', 'verify', 'reason', 'assemble']));
    const result = await outcome({ version: 1, nodes: planned.graph.nodes });
    expect(result.error).toBeUndefined();
    expect(result.status).toBe('awaiting_approval');
    expect(result.answer).toBeUndefined();
  }, 60_000);

  it('refuses compensation naming the approval gate instead of completing with no approver', async () => {
    const retrieve = planned.graph.nodes.find((node) => node.kind === 'retrieve')!;
    const result = await outcome(edit((node) => (node.id === retrieve.id ? { ...node, compensation: 'approve' } : node)));
    expect(result.status, 'the run completed without an approver').toBeUndefined();
    expect(result.error).toMatchObject({ code: 'INVALID_GRAPH', field: `graph.nodes.${retrieve.id}.compensation` });
    expect(result.error!.message).toMatch(/compensation "approve"/);
  }, 60_000);

  it('refuses compensation naming verify, reason, assemble or evidence they wait for', async () => {
    for (const target of ['verify', 'reason', 'assemble', 'compress']) {
      const result = await outcome(edit((node) => (node.kind === 'retrieve' ? { ...node, compensation: target } : node)));
      expect(result.error, target).toMatchObject({ code: 'INVALID_GRAPH' });
      expect(result.error!.field, target).toMatch(/^graph\.nodes\.retrieve-.*\.compensation$/);
    }
  });

  it('refuses compensation and loops on the answer path and gate nodes, naming node and field', async () => {
    const retrieve = planned.graph.nodes.find((node) => node.kind === 'retrieve')!;
    const compensated = await outcome(edit((node) => (node.kind === 'approve' ? { ...node, compensation: retrieve.id } : node)));
    expect(compensated.error).toMatchObject({ code: 'INVALID_GRAPH', field: 'graph.nodes.approve.compensation' });
    for (const id of ['reason', 'verify', 'assemble', 'approve']) {
      const looped = await outcome(edit((node) => (node.id === id ? { ...node, loop: { maxIterations: 2, until: 'verified' } } : node)));
      expect(looped.error, id).toMatchObject({ code: 'INVALID_GRAPH', field: `graph.nodes.${id}.loop` });
    }
  });

  it('refuses moving the gate before the answer or handing it to another role', async () => {
    const moved = await outcome(edit((node) => (node.kind === 'approve' ? { ...node, inputs: [] } : node)));
    expect(moved.status, 'the gate was approved before there was an answer to approve').toBeUndefined();
    expect(moved.error).toMatchObject({ code: 'INVALID_GRAPH', field: 'graph.nodes.approve.inputs' });

    const reassigned = await outcome(edit((node) => (node.kind === 'approve' ? { ...node, approverRole: 'operator' } : node)));
    expect(reassigned.error).toMatchObject({ code: 'INVALID_GRAPH', field: 'graph.nodes.approve.approverRole' });

    const removed = await outcome({ version: 1, nodes: planned.graph.nodes.filter((node) => node.kind !== 'approve') });
    expect(removed.error).toMatchObject({ code: 'INVALID_GRAPH', field: 'graph.nodes.approve' });
  });
});
