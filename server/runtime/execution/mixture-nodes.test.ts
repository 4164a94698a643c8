import { describe, expect, it } from 'vitest';
import { createGraph, createNode } from '../ir/graph';
import { validateGraph } from '../ir/validate-graph';
import { mixtureNodes, type MixtureInput } from './mixture-nodes';

const estimate = { tokens: 100, costUsd: 0.001, latencySeconds: 0.5 };
const input = (layout: 'plan_worker_critic' | 'debate', branches: number): MixtureInput => ({
  shape: { layout, branches },
  assemble: 'assemble',
  reason: { strategy: layout, tier: 'model', localOnly: false, requireCitations: true, maxOutputTokens: 300 },
  callEstimate: estimate,
  retrieve: { method: 'bm25', sources: ['docs'], sourceKinds: 'all', k: 8, estimate },
  compress: { method: 'none', estimate },
  assembleFields: { tokenBudget: 4000, finalK: 8, estimate },
});

/** The plan's own path before a mixture, so the nodes can be validated as a whole graph. */
const head = [
  createNode('retrieve', { id: 'retrieve-bm25', inputs: [], method: 'bm25', sources: ['docs'], sourceKinds: 'all', k: 8 }),
  createNode('compress', { id: 'compress', inputs: ['retrieve-bm25'], method: 'none' }),
  createNode('assemble', { id: 'assemble', inputs: ['compress'], tokenBudget: 4000, finalK: 8 }),
];

describe('mixture nodes', () => {
  it('plan_worker_critic: a decompose root, one retrieval chain and worker per slot, a critic over the workers', () => {
    const { nodes, answerInputs } = mixtureNodes(input('plan_worker_critic', 2));
    expect(nodes.map((node) => node.id)).toEqual(['decompose', 'retrieve-worker1', 'compress-worker1', 'assemble-worker1', 'worker1', 'retrieve-worker2', 'compress-worker2', 'assemble-worker2', 'worker2', 'critic']);
    expect(answerInputs).toEqual(['critic', 'worker1', 'worker2']);
    expect(nodes.find((node) => node.id === 'worker2')).toMatchObject({ purpose: 'worker', slot: 1, estimate });
    const answer = createNode('reason', { id: 'reason', inputs: ['assemble', ...answerInputs], strategy: 'plan_worker_critic', tier: 'model', localOnly: false, requireCitations: true, maxOutputTokens: 300 });
    expect(() => validateGraph(createGraph([...head, ...nodes, answer]))).not.toThrow();
  });

  it('debate: solvers over the plan context, all read by the answer', () => {
    const { nodes, answerInputs } = mixtureNodes(input('debate', 3));
    expect(nodes.map((node) => [node.id, node.inputs])).toEqual([['solver1', ['assemble']], ['solver2', ['assemble']], ['solver3', ['assemble']]]);
    expect(answerInputs).toEqual(['solver1', 'solver2', 'solver3']);
  });
});
