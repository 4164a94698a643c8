import type { RetrieverCapabilities } from '../contracts/retriever';
import { nonNegative } from './units';

/**
 * What the chosen retrieval methods spend on models per query (an LLM reranker reports it), each
 * method once. The cost model adds it to a candidate's totals and the graph builder moves the same
 * share from the reason node onto the retrieve nodes: one sum, so the two never disagree.
 */
export function retrievalSpendOf(methods: readonly string[], capabilityOf: (method: string) => RetrieverCapabilities | undefined): { readonly tokens: number; readonly costUsd: number } {
  let tokens = 0;
  let costUsd = 0;
  for (const method of methods) {
    const capability = capabilityOf(method);
    tokens += nonNegative(capability?.tokensPerQuery ?? 0);
    costUsd += nonNegative(capability?.costUsdPerQuery ?? 0);
  }
  return { tokens, costUsd };
}
