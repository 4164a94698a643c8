/**
 * Test helper: one stratified (per-source) bm25 retrieve node run through the real node executor,
 * returning the chunk ids it outputs, best first.
 */
import type { RetrieverPlugin } from '../../contracts/retriever';
import { createNode } from '../../ir/graph';
import { createNodeExecutor, type ExecutionDependencies, type RetrievedOutput } from '../node-executors';

export async function stratifiedRetrieveIds(retriever: RetrieverPlugin, goal: string, sources: readonly string[], k: number): Promise<string[]> {
  const dependencies: ExecutionDependencies = {
    goal, identifiers: [], entities: [], retrievers: new Map([['bm25', retriever]]),
    router: undefined as never, reasoners: new Map(), compressions: new Map(), verifiers: new Map(), countTokens: (text) => text.length, modelTimeoutMs: 1000,
  };
  const node = createNode('retrieve', {
    id: 'retrieve-bm25', inputs: [], method: 'bm25', sources: [...sources], sourceKinds: 'all', k, perSource: true,
    retry: { maxAttempts: 1, backoffMs: 0 }, timeoutMs: 1000, estimate: { tokens: 0, costUsd: 0, latencySeconds: 0 },
  });
  const output = await createNodeExecutor(dependencies)(node, { attempt: 1, inputs: new Map(), signal: new AbortController().signal });
  return (output.output as RetrievedOutput).hits.map((entry) => entry.chunkId);
}
