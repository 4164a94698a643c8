/**
 * A retriever told to stop (its node timed out, its run was cancelled) stops between its steps,
 * aborts the model calls it makes, and returns nothing late: not even the first-stage order it
 * would fall back to when the grading model merely failed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EMBEDDER_CONTRACT, type EmbedderPlugin, type EmbedOptions } from '../../runtime/contracts/embedder';
import { RETRIEVER_CONTRACT, type RetrievalQuery, type RetrieverPlugin } from '../../runtime/contracts/retriever';
import { ContextRuntimeError } from '../../runtime/errors';
import type { Hit } from '../../runtime/types';
import { startLoopbackOpenAIServer, type LoopbackOpenAIServer } from '../../testing/loopback-openai-server';
import { createModelPlugin } from '../models/ai-sdk-model';
import { countTokens, preloadTokenEncoder } from '../models/token-counter';
import { DenseRetriever } from './dense-retriever';
import { LinearReranker } from './linear-reranker';
import { LlmRerankRetriever } from './llm-rerank-retriever';
import { DEFAULT_RERANK_MODEL } from './rerank-model';

const hit = (id: string, text: string): Hit => ({ chunkId: id, sourceName: 'docs', sourceKind: 'docs', sourceVersionId: 'docs-1', title: id, text, score: 0, rank: 0, method: 'bm25', tokens: countTokens(text) });
const HEAD = [hit('a', 'Connection pools are sized per service.'), hit('b', 'Checkout lowered its pool limit to 20.'), hit('c', 'Pool exhaustion shows up as timeouts.')];
const QUERY: RetrievalQuery = { text: 'why did checkout time out?', k: 3, sources: ['docs'] };

/** A first stage that answers after `delayMs` whatever the signal says: the slow database query PGlite cannot cancel. */
function slowFirstStage(delayMs: number): RetrieverPlugin {
  return {
    contract: RETRIEVER_CONTRACT,
    method: 'bm25',
    capabilities: () => ({ method: 'bm25', available: true, requires: [], latencyMs: delayMs, recallPrior: {} }),
    search: async () => {
      await new Promise((resolve) => setTimeout(resolve, delayMs));
      return HEAD.map((entry, index) => ({ ...entry, rank: index + 1, score: 3 - index }));
    },
  };
}

let server: LoopbackOpenAIServer;
const grader = () => createModelPlugin({ name: 'grader', provider: 'openai-compatible', model: 'grader-1', base_url: server.baseURL }, {});

beforeAll(async () => {
  preloadTokenEncoder();
  server = await startLoopbackOpenAIServer({ text: '{"grades": []}', delayMs: 30_000 });
});
afterAll(() => server.close());

describe('a retriever whose node gave up', () => {
  it('stops after the step in flight and never starts the next (no model call)', async () => {
    const node = new AbortController();
    const reason = new ContextRuntimeError('TIMEOUT', 'node retrieve-llm-rerank timed out after 100 ms');
    setTimeout(() => node.abort(reason), 100);
    const before = server.calls.length;
    const retriever = new LlmRerankRetriever(slowFirstStage(300), grader(), { topN: 3, batchSize: 3 });
    await expect(retriever.search({ ...QUERY, signal: node.signal })).rejects.toBe(reason);
    expect(server.calls.length).toBe(before);
  });

  it('aborts its grading call at the server and returns no first-stage fallback after the abort', async () => {
    const node = new AbortController();
    const reason = new ContextRuntimeError('CONFLICT', 'run cancelled while node retrieve-llm-rerank ran');
    const before = server.calls.length;
    const retriever = new LlmRerankRetriever(slowFirstStage(0), grader(), { topN: 3, batchSize: 3 });
    const searching = retriever.search({ ...QUERY, signal: node.signal });
    const deadline = Date.now() + 5_000;
    while (server.calls.length === before && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
    node.abort(reason);
    await expect(searching).rejects.toBe(reason);
    const [call] = server.calls.slice(before);
    while (call.ended === undefined && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(call.ended).toBe('aborted');
  });
});

/** A provider embedder whose call never answers: it ends only when the caller's signal aborts it, as the AI SDK's embedMany does. */
function hangingEmbedder(id: string): EmbedderPlugin & { readonly signals: (AbortSignal | undefined)[] } {
  const signals: (AbortSignal | undefined)[] = [];
  return {
    contract: EMBEDDER_CONTRACT,
    id,
    dimensions: 100,
    signals,
    embed: (_texts: readonly string[], options: EmbedOptions = {}) => {
      signals.push(options.signal);
      return new Promise((_resolve, reject) => options.signal?.addEventListener('abort', () => reject(options.signal!.reason), { once: true }));
    },
  };
}

describe("an embedding call a retriever makes for its node", () => {
  it("the dense retriever's query embedding is aborted with the node", async () => {
    const embedder = hangingEmbedder('remote-embedder');
    // The embedding comes before any statement: no database is reached.
    const dense = new DenseRetriever(undefined as never, undefined as never, embedder, { available: true, recallPrior: {}, embedLatencyMs: 200 });
    const node = new AbortController();
    const reason = new ContextRuntimeError('TIMEOUT', 'node retrieve-dense timed out after 50 ms');
    const searching = dense.search({ ...QUERY, signal: node.signal });
    setTimeout(() => node.abort(reason), 50);
    await expect(searching).rejects.toBe(reason);
    expect(embedder.signals).toEqual([node.signal]);
  });

  it("the linear reranker's cosine feature embedding is aborted with the node", async () => {
    const embedder = hangingEmbedder(DEFAULT_RERANK_MODEL.cosineEmbedderId!);
    const dense = { embedder, capabilities: () => ({ method: 'dense' as const, available: true, requires: [], latencyMs: 1, recallPrior: {} }) };
    const reranker = new LinearReranker(undefined as never, { dense });
    const node = new AbortController();
    const reason = new ContextRuntimeError('CONFLICT', 'run cancelled while node retrieve-rerank ran');
    const reranking = reranker.rerank({ text: QUERY.text, hits: HEAD, topN: 3, signal: node.signal });
    setTimeout(() => node.abort(reason), 50);
    await expect(reranking).rejects.toBe(reason);
    expect(embedder.signals).toEqual([node.signal]);
  });
});
