import { describe, expect, it } from 'vitest';
import type { NodeOutcome } from '../contracts/scheduler';
import type { RetrieverCapabilities } from '../contracts/retriever';
import { answerOutputsOf } from '../ir/node-outputs';
import { validateGraph } from '../ir/validate-graph';
import { WaveScheduler } from '../scheduler/wave-scheduler';
import type { CandidateEstimates, Estimate } from '../types';
import { buildExecutionGraph, type GraphBuildInput } from './graph-builder';
import type { RetryAttempt } from './verification-gate';

const point = (value: number): Estimate => ({ value, low: value, high: value });
const BM25: RetrieverCapabilities = { method: 'bm25', available: true, requires: [], latencyMs: 2, recallPrior: { default: 0.7 } };
const estimates: CandidateEstimates = {
  accuracy: point(0.8), costUsd: point(0.002), latencySeconds: point(1), tokens: point(2400), risk: point(0.1),
  hallucination: point(0.1), contextLoss: point(0), cacheHit: point(0), verificationConfidence: point(0.5),
};
const zero = { tokens: 0, costUsd: 0, latencySeconds: 0 };
const retry: RetryAttempt = { methods: ['bm25', 'vector'], k: 20, tier: 'premium', strategy: 'single_shot', why: 'top_k 10 → 20, + vector, tier cheap → premium', retrieveEstimate: zero, reasonEstimate: zero, judgeTier: 'premium' };
const input = (gate: GraphBuildInput['gate'], approval = false): GraphBuildInput => ({
  candidate: { id: 'c1', retrieval: ['bm25'], sourceKinds: 'all', topK: 10, modelTier: 'cheap', reasoning: 'single_shot', compression: 'none', verification: 'citation', shape: 'sequential', approval },
  estimates, sources: ['wiki'], retrievers: [BM25], tokenBudget: 3000, finalK: 8, meanChunkTokens: 40, localOnly: false, requireCitations: true, approvalReason: 'risky',
  maxOutputTokens: 400, retry: { maxAttempts: 1, backoffMs: 0 }, nodeTimeoutMs: 1000, intentClasses: ['conceptual'], observationSources: [], ...(gate ? { gate } : {}),
});
const judge = { tier: 'cheap', localOnly: false, estimate: { tokens: 900, costUsd: 0.001, latencySeconds: 0.5 } };

describe('verification that gates, as graph nodes', () => {
  it('without a requirement: the checks chain after the answer, and nothing gates', () => {
    const graph = buildExecutionGraph(input({ outputSchema: true, judge, required: false, retries: [retry] }));
    validateGraph(graph);
    expect(graph.nodes.slice(-3).map((node) => [node.id, node.inputs])).toEqual([['verify', ['reason', 'assemble']], ['verify-schema', ['reason', 'assemble', 'verify']], ['judge', ['reason', 'assemble', 'verify-schema']]]);
    expect(graph.nodes.some((node) => node.kind === 'branch')).toBe(false);
  });

  it('with a requirement: a gate on the last verdict, then a whole escalated attempt behind its false branch', () => {
    const graph = buildExecutionGraph(input({ outputSchema: false, judge, required: true, retries: [retry] }, true));
    validateGraph(graph);
    const byId = new Map(graph.nodes.map((node) => [node.id, node]));
    expect(byId.get('gate')).toMatchObject({ kind: 'branch', inputs: ['judge'], condition: 'judge.passed', whenTrue: [], whenFalse: ['retrieve-retry2-bm25', 'retrieve-retry2-vector'], loop: { maxIterations: 2, until: 'verified' } });
    expect(byId.get('retrieve-retry2-vector')).toMatchObject({ inputs: ['gate'], k: 20, method: 'vector' });
    expect(byId.get('reason-retry2')).toMatchObject({ inputs: ['assemble-retry2'], tier: 'premium', strategy: 'single_shot' });
    expect(byId.get('judge-retry2')).toMatchObject({ tier: 'premium', required: true, inputs: ['reason-retry2', 'assemble-retry2', 'verify-retry2'] });
    expect(byId.get('judge')).toMatchObject({ required: true });
    expect(byId.get('verify')).not.toHaveProperty('required');
    // The approval waits for every attempt's verdict; the skipped ones count as done.
    expect(byId.get('approve')?.inputs).toEqual(['judge', 'judge-retry2']);
  });

  it('the scheduler skips the next attempt when the verdict passes and runs it when it fails; the answer is the last attempt that ran', async () => {
    const graph = buildExecutionGraph(input({ outputSchema: false, required: true, retries: [retry] }));
    for (const firstPasses of [true, false]) {
      const ran: string[] = [];
      const executor = async (node: { id: string; kind: string; condition?: string; whenTrue?: readonly string[]; whenFalse?: readonly string[] }, context: { inputs: ReadonlyMap<string, unknown> }): Promise<NodeOutcome> => {
        ran.push(node.id);
        const actual = { tokens: 0, costUsd: 0, latencySeconds: 0 };
        if (node.kind === 'verify') return { output: { method: 'citation', passed: node.id === 'verify' ? firstPasses : true, confidence: 1, checks: [] }, actual };
        if (node.kind === 'branch') {
          const passed = (context.inputs.get('verify') as { passed: boolean }).passed;
          return { output: { condition: node.condition, value: passed }, takenBranch: passed ? node.whenTrue : node.whenFalse, actual };
        }
        if (node.kind === 'reason') return { output: { answer: node.id, citations: [], modelCalls: [] }, actual };
        return { output: { hits: [], items: [], tokens: 0, bySource: [], dropped: [], compressedTokensRemoved: 0 }, actual };
      };
      const scheduler = new WaveScheduler();
      const result = await scheduler.run(graph, scheduler.schedule(graph, { concurrency: 2 }), executor as never, { completed: new Map(), skipped: new Set(), decisions: new Map() }, { onNodeDone: async () => undefined });
      expect(result.status).toBe('completed');
      expect(ran.includes('reason-retry2')).toBe(!firstPasses);
      expect(answerOutputsOf(graph, result.outcomes).reasoned?.answer).toBe(firstPasses ? 'reason' : 'reason-retry2');
    }
  });
});
