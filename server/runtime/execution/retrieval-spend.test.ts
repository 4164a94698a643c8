import { describe, expect, it } from 'vitest';
import { RETRIEVER_CONTRACT, type RetrieverCapabilities, type RetrieverPlugin } from '../contracts/retriever';
import type { NodeOutcome } from '../contracts/scheduler';
import { buildAnalyze } from '../facade/explain-builder';
import { modelTokensOf } from '../ir/graph';
import type { CandidateEstimates, CandidatePlan, Estimate, Hit } from '../types';
import { buildExecutionGraph, type GraphBuildInput } from './graph-builder';
import { createNodeExecutor, type ExecutionDependencies } from './node-executors';

const point = (value: number): Estimate => ({ value, low: value, high: value });

/** A model-calling retriever (the shape of an LLM reranker): $0.002 and 5,000 tokens per search. */
const PRICED: RetrieverCapabilities = { method: 'priced-rerank', available: true, requires: [], latencyMs: 400, recallPrior: { default: 0.8 }, costUsdPerQuery: 0.002, tokensPerQuery: 5000 };
const FREE: RetrieverCapabilities = { method: 'bm25', available: true, requires: [], latencyMs: 2, recallPrior: { default: 0.7 } };

const hit = (id: string, sourceName: string): Hit => ({ chunkId: id, sourceName, sourceKind: 'docs', sourceVersionId: `${sourceName}-1`, title: id, text: `text of ${id}`, score: 1, rank: 1, method: 'priced-rerank', tokens: 40 });

function pricedRetriever(spendPerSearch: { inputTokens: number; outputTokens: number; costUsd: number }): RetrieverPlugin {
  return {
    contract: RETRIEVER_CONTRACT,
    method: PRICED.method,
    capabilities: () => PRICED,
    search: async (query) => {
      query.onSpend?.(spendPerSearch);
      return query.sources.map((source, index) => hit(`${source}-${index}`, source));
    },
  };
}

const candidate = (retrieval: readonly string[]): CandidatePlan => ({
  id: 'c1', retrieval, sourceKinds: 'all', topK: 10, modelTier: 'local', reasoning: 'single_shot', compression: 'none', verification: 'none', shape: 'sequential', approval: false,
});

// The cost model's totals for the candidate: 1,200 reasoning tokens and $0.001, plus the priced method's per-query spend.
const estimates = (retrieval: readonly string[]): CandidateEstimates => {
  const priced = retrieval.includes(PRICED.method);
  return {
    accuracy: point(0.8), costUsd: point(0.001 + (priced ? 0.002 : 0)), latencySeconds: point(1), tokens: point(1200 + (priced ? 5000 : 0)), risk: point(0.1),
    hallucination: point(0.1), contextLoss: point(0), cacheHit: point(0), verificationConfidence: point(0.5),
  };
};

const buildInput = (retrieval: readonly string[], overrides: Partial<GraphBuildInput> = {}): GraphBuildInput => ({
  candidate: candidate(retrieval), estimates: estimates(retrieval), sources: ['docs'], retrievers: [PRICED, FREE], tokenBudget: 3000, finalK: 8, meanChunkTokens: 40,
  localOnly: true, requireCitations: false, approvalReason: '', maxOutputTokens: 400, retry: { maxAttempts: 1, backoffMs: 0 }, nodeTimeoutMs: 1000, intentClasses: ['conceptual'], observationSources: [],
  ...overrides,
});

const dependencies = (retriever: RetrieverPlugin): ExecutionDependencies => ({
  goal: 'why did checkout fail', identifiers: [], entities: [], retrievers: new Map([[retriever.method, retriever]]), router: undefined as never,
  reasoners: new Map(), compressions: new Map(), verifiers: new Map(), countTokens: (text) => text.length, modelTimeoutMs: 1000,
});

describe("a retriever's model spend", () => {
  it("is estimated on its retrieve node and taken off the reason node, so the plan's totals are unchanged", () => {
    const graph = buildExecutionGraph(buildInput([PRICED.method]));
    const retrieve = graph.nodes.find((node) => node.id === 'retrieve-priced-rerank')!;
    const reason = graph.nodes.find((node) => node.kind === 'reason')!;
    expect(retrieve.estimate).toMatchObject({ costUsd: 0.002, modelTokens: 5000, tokens: 400 });
    expect(reason.estimate).toMatchObject({ costUsd: 0.001, tokens: 1200 });
    const estimated = graph.nodes.map((node) => ({ kind: node.kind, estimate: node.estimate! }));
    expect(estimated.reduce((sum, { estimate }) => sum + estimate.costUsd, 0)).toBeCloseTo(0.003, 12);
    expect(estimated.reduce((sum, { kind, estimate }) => sum + modelTokensOf(kind, estimate), 0)).toBe(6200);
  });

  it('is absent from the nodes of methods that call no model', () => {
    const graph = buildExecutionGraph(buildInput([FREE.method]));
    expect(graph.nodes.find((node) => node.id === 'retrieve-bm25')!.estimate).not.toHaveProperty('modelTokens');
    expect(graph.nodes.find((node) => node.id === 'retrieve-bm25')!.estimate!.costUsd).toBe(0);
  });

  it("counts once per search: a per-source node searches each source", () => {
    const graph = buildExecutionGraph(buildInput([PRICED.method], { sources: ['docs', 'logs', 'git'], intentClasses: ['multi_hop'] }));
    expect(graph.nodes.find((node) => node.id === 'retrieve-priced-rerank')!.estimate).toMatchObject({ costUsd: 0.006, modelTokens: 15000 });
  });

  it('becomes the retrieve node actual cost and model tokens, and the run totals hold it', async () => {
    const graph = buildExecutionGraph(buildInput([PRICED.method], { sources: ['docs', 'logs'], intentClasses: ['multi_hop'] }));
    const node = graph.nodes.find((entry) => entry.id === 'retrieve-priced-rerank')!;
    const execute = createNodeExecutor(dependencies(pricedRetriever({ inputTokens: 2400, outputTokens: 60, costUsd: 0.0011 })));
    const outcome = await execute(node, { attempt: 1, inputs: new Map(), signal: new AbortController().signal });
    expect(outcome.actual.costUsd).toBeCloseTo(0.0022, 12);
    expect(outcome.actual.modelTokens).toBe(4920);
    expect(outcome.actual.tokens).toBe(80); // the evidence: two hits of 40 tokens
    const reasonActual: NodeOutcome = { output: {}, actual: { tokens: 900, costUsd: 0.0005, latencySeconds: 0.2 } };
    const analyze = buildAnalyze(graph, { id: 'r', status: 'completed', nodeOutcomes: new Map([[node.id, outcome], ['reason', reasonActual]]), skipped: [], pendingNodeId: undefined });
    expect(analyze.totals.actual.tokens).toBe(900 + 4920);
    expect(analyze.totals.actual.costUsd).toBeCloseTo(0.0027, 12);
  });

  it('leaves a retriever that spends nothing at cost 0 with no model tokens', async () => {
    const graph = buildExecutionGraph(buildInput([PRICED.method]));
    const node = graph.nodes.find((entry) => entry.id === 'retrieve-priced-rerank')!;
    const silent: RetrieverPlugin = { ...pricedRetriever({ inputTokens: 0, outputTokens: 0, costUsd: 0 }), search: async (query) => [hit('a', query.sources[0])] };
    const outcome = await createNodeExecutor(dependencies(silent))(node, { attempt: 1, inputs: new Map(), signal: new AbortController().signal });
    expect(outcome.actual).toMatchObject({ costUsd: 0, tokens: 40 });
    expect(outcome.actual).not.toHaveProperty('modelTokens');
  });
});
