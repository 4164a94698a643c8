import { describe, expect, it } from 'vitest';
import { RETRIEVER_CONTRACT, type RetrievalQuery, type RetrieverCapabilities, type RetrieverPlugin } from '../contracts/retriever';
import type { RetrieveNode } from '../ir/graph';
import { validateGraph } from '../ir/validate-graph';
import type { CandidateEstimates, Estimate } from '../types';
import { buildExecutionGraph, type GraphBuildInput } from './graph-builder';
import { createNodeExecutor, type ExecutionDependencies } from './node-executors';

const point = (value: number): Estimate => ({ value, low: value, high: value });
const GRAPH: RetrieverCapabilities = { method: 'graph', available: true, requires: [], latencyMs: 4, recallPrior: { default: 0.7 } };
const BM25: RetrieverCapabilities = { method: 'bm25', available: true, requires: [], latencyMs: 2, recallPrior: { default: 0.7 }, timeWindows: true };
const estimates: CandidateEstimates = {
  accuracy: point(0.8), costUsd: point(0.002), latencySeconds: point(1), tokens: point(2400), risk: point(0.1),
  hallucination: point(0.1), contextLoss: point(0), cacheHit: point(0), verificationConfidence: point(0.5),
};
const AT_NINE = [{ from: '2025-06-01T08:30', to: '2025-06-01T09:30' }];
const input = (retrievers: readonly RetrieverCapabilities[], timeWindows?: GraphBuildInput['timeWindows']): GraphBuildInput => ({
  candidate: { id: 'c1', retrieval: ['graph'], sourceKinds: 'all', topK: 10, modelTier: 'local', reasoning: 'single_shot', compression: 'none', verification: 'citation', shape: 'sequential', approval: false },
  estimates, sources: ['runbooks', 'spool-logs', 'queue-metrics'], retrievers, tokenBudget: 3000, finalK: 8, meanChunkTokens: 40, localOnly: true, requireCitations: true, approvalReason: '',
  maxOutputTokens: 400, retry: { maxAttempts: 1, backoffMs: 0 }, nodeTimeoutMs: 1000, intentClasses: ['conceptual'], observationSources: ['spool-logs'],
  ...(timeWindows ? { timeWindows } : {}),
});
const retrieveIds = (graph: ReturnType<typeof buildExecutionGraph>) => graph.nodes.filter((node) => node.kind === 'retrieve').map((node) => node.id);

describe('the time-window hop: the goal names an instant', () => {
  it('searches the stamped sources within its window by a retriever that can, fused beside the plan’s own retrieval', () => {
    const graph = buildExecutionGraph(input([GRAPH, BM25], { windows: AT_NINE, sources: ['spool-logs', 'queue-metrics'] }));
    validateGraph(graph);
    expect(retrieveIds(graph)).toEqual(['retrieve-graph', 'retrieve-bm25-moment']);
    expect(graph.nodes.find((node) => node.id === 'retrieve-bm25-moment')).toMatchObject({ method: 'bm25', sources: ['spool-logs', 'queue-metrics'], within: AT_NINE, k: 10, inputs: [] });
    expect(graph.nodes.find((node) => node.id === 'fuse')?.inputs).toEqual(['retrieve-graph', 'retrieve-bm25-moment']);
  });

  it('is left out without a window, without a stamped source in scope, or without a retriever that filters by time', () => {
    expect(retrieveIds(buildExecutionGraph(input([GRAPH, BM25], { windows: [], sources: ['spool-logs'] })))).toEqual(['retrieve-graph']);
    expect(retrieveIds(buildExecutionGraph(input([GRAPH, BM25], { windows: AT_NINE, sources: [] })))).toEqual(['retrieve-graph']);
    expect(retrieveIds(buildExecutionGraph(input([GRAPH, { ...BM25, timeWindows: undefined }], { windows: AT_NINE, sources: ['spool-logs'] })))).toEqual(['retrieve-graph']);
    expect(retrieveIds(buildExecutionGraph(input([GRAPH, { ...BM25, available: false }], { windows: AT_NINE, sources: ['spool-logs'] })))).toEqual(['retrieve-graph']);
  });
});

describe('the time-window hop executed', () => {
  it('hands its windows to the retriever with the goal, and a plain retrieval none', async () => {
    const queries: RetrievalQuery[] = [];
    const bm25: RetrieverPlugin = { contract: RETRIEVER_CONTRACT, method: 'bm25', capabilities: () => BM25, search: async (query) => { queries.push(query); return []; } };
    const dependencies: ExecutionDependencies = {
      goal: 'How deep was the spool queue at 09:00 on 1 June 2025?', identifiers: [], entities: [], retrievers: new Map([['bm25', bm25]]),
      router: undefined as never, reasoners: new Map(), compressions: new Map(), verifiers: new Map(), countTokens: (text) => text.length, modelTimeoutMs: 1000,
    };
    const graph = buildExecutionGraph(input([GRAPH, BM25], { windows: AT_NINE, sources: ['spool-logs'] }));
    const hop = graph.nodes.find((node): node is RetrieveNode => node.id === 'retrieve-bm25-moment')!;
    const execute = createNodeExecutor({ ...dependencies, graph });
    await execute(hop, { attempt: 1, inputs: new Map(), signal: new AbortController().signal });
    await execute({ ...hop, id: 'plain', within: undefined }, { attempt: 1, inputs: new Map(), signal: new AbortController().signal });
    expect(queries[0]).toMatchObject({ text: dependencies.goal, sources: ['spool-logs'], within: AT_NINE, k: 10 });
    expect(queries[1].within).toBeUndefined();
  });
});
