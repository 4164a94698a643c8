import { describe, expect, it } from 'vitest';
import { createGraph, createNode, withNode, isNode } from './graph';
import { validateGraph, InvalidGraphError } from './validate-graph';
import { graphFromJson, graphToJson } from './serialize-graph';
import { planHash } from './plan-hash';
import type { CandidatePlan } from '../types';

const retrieve = createNode('retrieve', { id: 'r1', inputs: [], method: 'bm25', sources: ['docs'], sourceKinds: 'all', k: 20, retry: { maxAttempts: 3, backoffMs: 100 } });
const assemble = createNode('assemble', { id: 'a1', inputs: ['r1'], tokenBudget: 3000, finalK: 8 });
const reason = createNode('reason', { id: 'm1', inputs: ['a1'], strategy: 'single_shot', tier: 'local', localOnly: false, requireCitations: true, maxOutputTokens: 400, compensation: 'a1' });

describe('execution graph IR', () => {
  it('freezes nodes and rewrites by copy', () => {
    const graph = createGraph([retrieve, assemble, reason]);
    expect(Object.isFrozen(retrieve)).toBe(true);
    expect(() => ((retrieve as { k: number }).k = 5)).toThrow();
    const rewritten = withNode(graph, 'r1', (node) => ({ ...node, k: 50 }) as typeof node);
    expect((rewritten.nodes[0] as typeof retrieve).k).toBe(50);
    expect(retrieve.k).toBe(20);
    expect(isNode(rewritten.nodes[0], 'retrieve')).toBe(true);
  });

  it('accepts a well-formed graph and round-trips through JSON', () => {
    const graph = createGraph([retrieve, assemble, reason]);
    validateGraph(graph);
    const again = graphFromJson(graphToJson(graph));
    expect(graphToJson(again)).toBe(graphToJson(graph));
    expect(again.nodes[0]).toEqual(retrieve);
  });

  it('names the node on a cycle', () => {
    const a = createNode('merge', { id: 'x', inputs: ['y'] });
    const b = createNode('merge', { id: 'y', inputs: ['x'] });
    expect(() => validateGraph(createGraph([a, b]))).toThrowError(/cycle x → y → x|cycle y → x → y/);
  });

  it('names the node with a dangling edge', () => {
    const bad = createNode('assemble', { id: 'a9', inputs: ['missing'], tokenBudget: 1, finalK: 1 });
    try {
      validateGraph(createGraph([bad]));
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(InvalidGraphError);
      expect((error as InvalidGraphError).details).toMatchObject({ problem: 'dangling_edge', nodeId: 'a9' });
    }
  });

  it('rejects an unknown kind from JSON, naming the node', () => {
    const json = JSON.stringify({ version: 1, nodes: [{ id: 'q1', kind: 'teleport', inputs: [] }] });
    expect(() => graphFromJson(json)).toThrowError(/node q1: unknown kind "teleport"/);
  });

  it('rejects a branch whose target is not its successor', () => {
    const branch = createNode('branch', { id: 'b', inputs: ['r1'], condition: 'x', whenTrue: ['r1'], whenFalse: [] });
    expect(() => validateGraph(createGraph([retrieve, branch]))).toThrowError(/branch target "r1"/);
  });

  it('hashes plans stably and sensitively', () => {
    const choice: CandidatePlan = { id: 'c1', retrieval: ['bm25'], sourceKinds: 'all', topK: 20, modelTier: 'local', reasoning: 'single_shot', compression: 'none', verification: 'citation', shape: 'sequential', approval: false };
    const identity = { intent: { normalized: 'why', primary: 'incident' as const, classes: ['incident' as const] }, choice, sourceFingerprint: 'f1', policyFingerprint: 'p1', constraints: { max_cost_usd: 1 }, plannerVersion: 'p1' };
    expect(planHash(identity)).toBe(planHash({ ...identity, choice: { ...choice } }));
    expect(planHash(identity)).not.toBe(planHash({ ...identity, sourceFingerprint: 'f2' }));
    expect(planHash(identity)).not.toBe(planHash({ ...identity, constraints: { max_cost_usd: 2 } }));
    expect(planHash(identity)).not.toBe(planHash({ ...identity, plannerVersion: 'p2' }));
  });
});
