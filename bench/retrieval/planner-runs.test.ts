import { describe, expect, it } from 'vitest';
import { createGraph, createNode } from '../../server/runtime/ir/graph';
import { choiceOf, gatedNodes, modelFedNodes, retrievalOrder } from './planner-runs';

const retrieve = (id: string, inputs: string[], method = 'bm25') => createNode('retrieve', { id, inputs, method, sources: ['docs'], sourceKinds: 'all', k: 10 });

describe('the planner path runs the first attempt only', () => {
  // The shape verification-gate.ts builds: attempt 2 hangs off the gate's false branch.
  const graph = createGraph([
    retrieve('retrieve-bm25', []),
    retrieve('retrieve-graph', [], 'graph'),
    createNode('fuse', { id: 'fuse', inputs: ['retrieve-bm25', 'retrieve-graph'], strategy: 'rrf', rrfK: 60, k: 10 }),
    createNode('reason', { id: 'reason', inputs: ['fuse'], strategy: 'single_shot', tier: 'local', localOnly: true, requireCitations: true, maxOutputTokens: 300 }),
    createNode('verify', { id: 'verify', inputs: ['reason', 'fuse'], method: 'citation', required: true }),
    createNode('branch', { id: 'gate', inputs: ['verify'], condition: 'verify.passed', whenTrue: [], whenFalse: ['retrieve-retry2-bm25', 'retrieve-retry2-rm3'] }),
    retrieve('retrieve-retry2-bm25', ['gate']),
    retrieve('retrieve-retry2-rm3', ['gate'], 'rm3'),
    createNode('fuse', { id: 'fuse-retry2', inputs: ['retrieve-retry2-bm25', 'retrieve-retry2-rm3'], strategy: 'rrf', rrfK: 60, k: 20 }),
  ]);

  it('leaves out every node behind a branch, and what follows them', () => {
    expect([...gatedNodes(graph)].sort()).toEqual(['fuse-retry2', 'retrieve-retry2-bm25', 'retrieve-retry2-rm3']);
  });

  it('orders the first attempt’s retrieval nodes inputs first', () => {
    expect(retrievalOrder(graph).map((node) => node.id)).toEqual(['retrieve-bm25', 'retrieve-graph', 'fuse']);
  });

  it('tallies the methods that run, not the retry attempt’s', () => {
    expect(choiceOf(graph)).toBe('bm25+graph');
  });

  it('keeps a graph without a gate whole', () => {
    const plain = createGraph([retrieve('retrieve-bm25', []), createNode('reason', { id: 'reason', inputs: ['retrieve-bm25'], strategy: 'single_shot', tier: 'local', localOnly: true, requireCitations: true, maxOutputTokens: 300 })]);
    expect(retrievalOrder(plain).map((node) => node.id)).toEqual(['retrieve-bm25']);
  });

  it('scores a decomposing plan on the retrieval its first model call reads: the bridge hop waits for a model', () => {
    // The shape decomposition-hops.ts builds: retrieve-hop1 searches with the name reason-hop1 read.
    const hops = createGraph([
      retrieve('retrieve-bm25', []),
      createNode('compress', { id: 'compress-hop1', inputs: ['retrieve-bm25'], method: 'none' }),
      createNode('assemble', { id: 'assemble-hop1', inputs: ['compress-hop1'], tokenBudget: 500, finalK: 5 }),
      createNode('reason', { id: 'reason-hop1', inputs: ['assemble-hop1'], purpose: 'bridge', strategy: 'decomposition', tier: 'local', localOnly: true, requireCitations: true, maxOutputTokens: 300 }),
      { ...retrieve('retrieve-hop1', ['reason-hop1']), bridgeFrom: 'reason-hop1' },
      createNode('fuse', { id: 'fuse-hop1', inputs: ['retrieve-bm25', 'retrieve-hop1'], strategy: 'rrf', rrfK: 60, k: 10 }),
    ]);
    expect([...modelFedNodes(hops)].sort()).toEqual(['fuse-hop1', 'retrieve-hop1']);
    expect(retrievalOrder(hops).map((node) => node.id)).toEqual(['retrieve-bm25']);
    expect(choiceOf(hops)).toBe('bm25');
  });
});
