import { describe, expect, it } from 'vitest';
import { RETRIEVER_CONTRACT, type RetrieverCapabilities, type RetrieverPlugin } from '../contracts/retriever';
import type { ReasonResult } from '../contracts/reasoner';
import { modelTokensOf } from '../ir/graph';
import { answerNodeOf, contextNodeOf, findNodesByRole } from '../ir/node-outputs';
import { validateGraph } from '../ir/validate-graph';
import type { CandidateEstimates, Estimate, Hit } from '../types';
import { buildExecutionGraph, type GraphBuildInput } from './graph-builder';
import { createNodeExecutor, type RetrievedOutput } from './node-executors';

const point = (value: number): Estimate => ({ value, low: value, high: value });
const BM25: RetrieverCapabilities = { method: 'bm25', available: true, requires: [], latencyMs: 2, recallPrior: { default: 0.7 } };
const estimates: CandidateEstimates = {
  accuracy: point(0.8), costUsd: point(0.002), latencySeconds: point(1), tokens: point(2400), risk: point(0.1),
  hallucination: point(0.1), contextLoss: point(0), cacheHit: point(0), verificationConfidence: point(0.5),
};
const input = (bridgeHops: number): GraphBuildInput => ({
  candidate: { id: 'c1', retrieval: ['bm25'], sourceKinds: 'all', topK: 10, modelTier: 'local', reasoning: 'decomposition', compression: 'none', verification: 'citation', shape: 'sequential', approval: false },
  estimates, sources: ['wiki'], retrievers: [BM25], tokenBudget: 3000, finalK: 8, meanChunkTokens: 40, localOnly: true, requireCitations: true, approvalReason: '',
  maxOutputTokens: 400, retry: { maxAttempts: 1, backoffMs: 0 }, nodeTimeoutMs: 1000, intentClasses: ['multi_hop'], observationSources: [], bridgeHops,
});

describe('a decomposition as graph nodes', () => {
  it('puts each hop in its own nodes: bridge reason → bridge retrieve → fuse with the first retrieval, then the answer path', () => {
    const graph = buildExecutionGraph(input(1));
    validateGraph(graph);
    expect(graph.nodes.map((node) => node.id)).toEqual(['retrieve-bm25', 'compress-hop1', 'assemble-hop1', 'reason-hop1', 'retrieve-hop1', 'fuse-hop1', 'compress', 'assemble', 'reason', 'verify']);
    const hop = graph.nodes.find((node) => node.id === 'retrieve-hop1')!;
    expect(hop).toMatchObject({ kind: 'retrieve', inputs: ['reason-hop1'], bridgeFrom: 'reason-hop1', method: 'bm25', sources: ['wiki'] });
    expect(graph.nodes.find((node) => node.id === 'fuse-hop1')!.inputs).toEqual(['retrieve-bm25', 'retrieve-hop1']);
    expect(findNodesByRole(graph, 'reason').map((node) => [node.id, node.purpose ?? 'answer'])).toEqual([['reason-hop1', 'bridge'], ['reason', 'answer']]);
    expect(answerNodeOf(graph)?.id).toBe('reason');
    expect(contextNodeOf(graph, answerNodeOf(graph))?.id).toBe('assemble');
    expect(graph.nodes.find((node) => node.id === 'reason')!.inputs).toEqual(['assemble', 'reason-hop1']);
    expect(graph.nodes.find((node) => node.id === 'verify')!.inputs).toEqual(['reason', 'assemble']);
  });

  it("splits the candidate's model tokens and cost over the two calls, so the plan's totals are unchanged", () => {
    const graph = buildExecutionGraph(input(1));
    const reasons = findNodesByRole(graph, 'reason');
    expect(reasons.map((node) => node.estimate!.tokens)).toEqual([1200, 1200]);
    expect(graph.nodes.reduce((sum, node) => sum + modelTokensOf(node.kind, node.estimate!), 0)).toBe(2400);
    expect(reasons.reduce((sum, node) => sum + node.estimate!.costUsd, 0)).toBeCloseTo(0.002, 12);
  });

  it('builds the one-shot graph unchanged when the reasoner runs no hops', () => {
    expect(buildExecutionGraph(input(0)).nodes.map((node) => node.id)).toEqual(['retrieve-bm25', 'compress', 'assemble', 'reason', 'verify']);
  });
});

describe('a graph walk over sources of several kinds', () => {
  const GRAPH: RetrieverCapabilities = { ...BM25, method: 'graph' };
  const walk = (scopedKinds: GraphBuildInput['scopedKinds']): GraphBuildInput => ({
    ...input(0),
    candidate: { ...input(0).candidate, retrieval: ['graph'], reasoning: 'single_shot', shape: 'parallel' },
    sources: ['ops-docs', 'ops-logs'],
    retrievers: [GRAPH, BM25],
    ...(scopedKinds ? { scopedKinds } : {}),
  });
  const retrieveIds = (graph: ReturnType<typeof buildExecutionGraph>) => graph.nodes.filter((node) => node.kind === 'retrieve').map((node) => node.id);

  it('is fused with a bm25 search, so the words of the question keep their say beside the entity hubs', () => {
    const graph = buildExecutionGraph(walk(['docs', 'logs']));
    validateGraph(graph);
    expect(retrieveIds(graph)).toEqual(['retrieve-graph', 'retrieve-bm25']);
    expect(graph.nodes.find((node) => node.id === 'fuse')!.inputs).toEqual(['retrieve-graph', 'retrieve-bm25']);
  });

  it('walks alone over one kind of passage, or when no bm25 retriever is available', () => {
    expect(retrieveIds(buildExecutionGraph(walk(['docs'])))).toEqual(['retrieve-graph']);
    expect(retrieveIds(buildExecutionGraph(walk(undefined)))).toEqual(['retrieve-graph']);
    expect(retrieveIds(buildExecutionGraph({ ...walk(['docs', 'logs']), retrievers: [GRAPH, { ...BM25, available: false }] }))).toEqual(['retrieve-graph']);
  });
});

describe('the bridge retrieval', () => {
  const queries: string[] = [];
  const retriever: RetrieverPlugin = {
    contract: RETRIEVER_CONTRACT,
    method: 'bm25',
    capabilities: () => BM25,
    search: async (query) => {
      queries.push(query.text);
      return [{ chunkId: 'c1', sourceName: 'wiki', sourceKind: 'docs', sourceVersionId: 'v1', title: 'Seattle', text: 'Seattle averages 6.8 inches of snow.', score: 1, rank: 1, method: 'bm25', tokens: 9 } satisfies Hit];
    },
  };
  const graph = buildExecutionGraph(input(1));
  const execute = createNodeExecutor({
    goal: 'What is the average snowfall in the city where Pearl Jam formed?', identifiers: [], entities: [], retrievers: new Map([['bm25', retriever]]), router: undefined as never,
    reasoners: new Map(), compressions: new Map(), verifiers: new Map(), countTokens: (text) => text.length, modelTimeoutMs: 1000, graph,
  });
  const hop = graph.nodes.find((node) => node.id === 'retrieve-hop1')!;
  const bridged = (bridge: readonly string[]): ReasonResult => ({ answer: 'Pearl Jam formed in Seattle [1].', citations: [], modelCalls: [], bridge });
  const run = (bridge: readonly string[]) => execute(hop, { attempt: 1, inputs: new Map([['reason-hop1', bridged(bridge)]]), signal: new AbortController().signal });

  it('searches the goal again with the names the bridge hop found', async () => {
    const outcome = await run(['Seattle']);
    expect(queries.at(-1)).toBe('What is the average snowfall in the city where Pearl Jam formed? Seattle');
    expect((outcome.output as RetrievedOutput).hits.map((hit) => hit.title)).toEqual(['Seattle']);
  });

  it('does not search at all when the bridge hop named nothing (it would repeat the first search)', async () => {
    const before = queries.length;
    const outcome = await run([]);
    expect(queries.length).toBe(before);
    expect((outcome.output as RetrievedOutput).hits).toEqual([]);
  });
});
