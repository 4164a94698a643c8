import { describe, expect, it } from 'vitest';
import type { RetrieverCapabilities } from '../contracts/retriever';
import { validateGraph } from '../ir/validate-graph';
import type { CandidateEstimates, Estimate } from '../types';
import { buildExecutionGraph, type GraphBuildInput } from './graph-builder';

const point = (value: number): Estimate => ({ value, low: value, high: value });
const BM25: RetrieverCapabilities = { method: 'bm25', available: true, requires: [], latencyMs: 2, recallPrior: { default: 0.7 } };
const estimates: CandidateEstimates = {
  accuracy: point(0.8), costUsd: point(0.002), latencySeconds: point(1), tokens: point(2400), risk: point(0.1),
  hallucination: point(0.1), contextLoss: point(0), cacheHit: point(0), verificationConfidence: point(0.5),
};
const input = (sources: readonly string[], observationSources: readonly string[], intentClasses: readonly string[] = ['incident']): GraphBuildInput => ({
  candidate: { id: 'c1', retrieval: ['bm25'], sourceKinds: 'all', topK: 10, modelTier: 'local', reasoning: 'single_shot', compression: 'none', verification: 'citation', shape: 'sequential', approval: false },
  estimates, sources, retrievers: [BM25], tokenBudget: 3000, finalK: 8, meanChunkTokens: 40, localOnly: true, requireCitations: true, approvalReason: '',
  maxOutputTokens: 400, retry: { maxAttempts: 1, backoffMs: 0 }, nodeTimeoutMs: 1000, intentClasses, observationSources,
});
const retrieveIds = (graph: ReturnType<typeof buildExecutionGraph>) => graph.nodes.filter((node) => node.kind === 'retrieve').map((node) => node.id);

describe('the incident hops (failure causes, feedback, quoted titles) follow the sources in scope', () => {
  it('probes the logs and events for causes, feeds their terms back over every source, and follows quoted titles from the first hop', () => {
    const graph = buildExecutionGraph(input(['runbooks', 'app-logs', 'k8s-events'], ['app-logs', 'k8s-events']));
    validateGraph(graph);
    expect(retrieveIds(graph)).toEqual(['retrieve-bm25', 'retrieve-bm25-causes', 'retrieve-bm25-feedback', 'retrieve-bm25-titles']);
    expect(graph.nodes.find((node) => node.id === 'retrieve-bm25-causes')).toMatchObject({ sources: ['app-logs', 'k8s-events'], focus: 'entities' });
    expect(graph.nodes.find((node) => node.id === 'retrieve-bm25-feedback')).toMatchObject({ sources: ['runbooks', 'app-logs', 'k8s-events'], inputs: ['retrieve-bm25-causes'] });
    expect(graph.nodes.find((node) => node.id === 'retrieve-bm25-titles')).toMatchObject({ quotedTitlesFrom: 'retrieve-bm25', inputs: ['retrieve-bm25'] });
    expect(graph.nodes.find((node) => node.id === 'fuse')?.inputs).toEqual(['retrieve-bm25', 'retrieve-bm25-causes', 'retrieve-bm25-feedback', 'retrieve-bm25-titles']);
  });

  it('adds neither hop over documents alone: an "incident" read of a claim ("kidney failure") has no observations to probe', () => {
    const graph = buildExecutionGraph(input(['abstracts'], []));
    validateGraph(graph);
    expect(retrieveIds(graph)).toEqual(['retrieve-bm25']);
    expect(graph.nodes.some((node) => node.kind === 'fuse')).toBe(false);
    expect(graph.nodes.find((node) => node.id === 'compress')?.inputs).toEqual(['retrieve-bm25']);
  });

  it('adds them for incidents only', () => {
    expect(retrieveIds(buildExecutionGraph(input(['runbooks', 'app-logs'], ['app-logs'], ['conceptual'])))).toEqual(['retrieve-bm25']);
  });
});
