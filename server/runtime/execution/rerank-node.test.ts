import { describe, expect, it } from 'vitest';
import { RERANKER_CONTRACT, type RerankerCapabilities, type RerankerPlugin, type RerankRequest } from '../contracts/reranker';
import { ContextRuntimeError } from '../errors';
import { createNode } from '../ir/graph';
import type { Hit } from '../types';
import { createNodeExecutor, type ExecutionDependencies, type RetrievedOutput } from './node-executors';

const hit = (id: string, rank: number): Hit => ({ chunkId: id, sourceName: 'docs', sourceKind: 'docs', sourceVersionId: 'docs-1', title: id, text: `text of ${id}`, score: 10 - rank, rank, method: 'bm25', tokens: 30 });
const FIRST_STAGE: readonly Hit[] = ['a', 'b', 'c', 'd', 'e'].map((id, index) => hit(id, index + 1));

/** Reverses the head (a stand-in for a model's grades) and bills each call as a priced model would. */
function reversingReranker(capabilities: Partial<RerankerCapabilities> = {}): RerankerPlugin & { readonly requests: RerankRequest[] } {
  const requests: RerankRequest[] = [];
  return {
    contract: RERANKER_CONTRACT,
    method: 'reverse',
    requests,
    capabilities: () => ({ method: 'reverse', available: true, latencyMs: 300, costUsdPerQuery: 0.001, tokensPerQuery: 2000, ...capabilities }),
    rerank: async (request) => {
      requests.push(request);
      request.onSpend?.({ inputTokens: 1200, outputTokens: 30, costUsd: 0.0006 });
      request.onSpend?.({ inputTokens: 800, outputTokens: 20, costUsd: 0.0004 });
      const head = request.hits.slice(0, request.topN).reverse();
      return [...head, ...request.hits.slice(request.topN)].map((entry, index) => ({ ...entry, rank: index + 1, method: 'reverse' }));
    },
  };
}

const dependencies = (rerankers: readonly RerankerPlugin[]): ExecutionDependencies => ({
  goal: 'why did checkout fail after 4.2', identifiers: ['4.2'], entities: [], retrievers: new Map(), rerankers: new Map(rerankers.map((reranker) => [reranker.method, reranker])),
  router: undefined as never, reasoners: new Map(), compressions: new Map(), verifiers: new Map(), countTokens: (text) => text.length, modelTimeoutMs: 1000,
});

const node = (method: string) => createNode('rerank', { id: 'rerank-1', inputs: ['retrieve-bm25'], method, topN: 3 });
const context = (output: RetrievedOutput | undefined) => ({ attempt: 1, inputs: new Map(output ? [['retrieve-bm25', output]] : []), signal: new AbortController().signal });

describe('the rerank node executor', () => {
  it("reorders its input's hits through the named reranker and records the reranker's spend as the node's actuals", async () => {
    const reranker = reversingReranker();
    const outcome = await createNodeExecutor(dependencies([reranker]))(node('reverse'), context({ hits: FIRST_STAGE }));
    const { hits } = outcome.output as RetrievedOutput;
    expect(hits.map((entry) => entry.chunkId)).toEqual(['c', 'b', 'a', 'd', 'e']);
    expect(hits.map((entry) => entry.rank)).toEqual([1, 2, 3, 4, 5]);
    expect(reranker.requests).toEqual([expect.objectContaining({ text: 'why did checkout fail after 4.2', identifiers: ['4.2'], topN: 3, hits: FIRST_STAGE })]);
    expect(outcome.actual.costUsd).toBeCloseTo(0.001, 12);
    expect(outcome.actual.modelTokens).toBe(2050);
    expect(outcome.actual.tokens).toBe(150); // the evidence passed on: five hits of 30 tokens
  });

  it('fails the node naming the registered rerankers when the method is unknown or unavailable', async () => {
    const execute = createNodeExecutor(dependencies([reversingReranker()]));
    const unknown = await execute(node('nope'), context({ hits: FIRST_STAGE })).catch((error: unknown) => error);
    expect(unknown).toBeInstanceOf(ContextRuntimeError);
    expect(unknown).toMatchObject({ code: 'NODE_FAILED', message: 'no reranker "nope" is registered (registered: reverse)' });

    const offline = createNodeExecutor(dependencies([reversingReranker({ available: false, unavailableReason: 'model tier cheap unavailable: KEY is not set' })]));
    await expect(offline(node('reverse'), context({ hits: FIRST_STAGE }))).rejects.toMatchObject({ code: 'NODE_FAILED', message: expect.stringMatching(/reranker "reverse" is unavailable: model tier cheap unavailable/) });

    const none = { ...dependencies([]), rerankers: undefined };
    await expect(createNodeExecutor(none)(node('reverse'), context({ hits: FIRST_STAGE }))).rejects.toThrow('no reranker "reverse" is registered (registered: none)');
  });

  it('fails without a completed input, and spends nothing for a reranker that reports no spend', async () => {
    const reranker = reversingReranker();
    await expect(createNodeExecutor(dependencies([reranker]))(node('reverse'), context(undefined))).rejects.toThrow(/rerank node rerank-1 has no completed retrieve or fuse input/);
    const silent: RerankerPlugin = { ...reranker, rerank: async (request) => request.hits };
    const outcome = await createNodeExecutor(dependencies([silent]))(node('reverse'), context({ hits: FIRST_STAGE }));
    expect(outcome.actual).toMatchObject({ costUsd: 0, tokens: 150 });
    expect(outcome.actual).not.toHaveProperty('modelTokens');
  });
});
