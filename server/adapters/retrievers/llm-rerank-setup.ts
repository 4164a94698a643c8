import type { ModelPlugin } from '../../runtime/contracts/model';
import type { RetrieverPlugin } from '../../runtime/contracts/retriever';
import { type LlmRerankOptions, LlmRerankRetriever } from './llm-rerank-retriever';

/**
 * The tier the reranker calls: the cheapest (first in config order) non-local tier that can be
 * reached, else the first non-local one (so the retriever is listed, unavailable, with the tier's
 * reason, as an unreachable tier is). Local tiers are skipped: the built-in one is an extractive
 * reader that cannot grade, and a self-hosted model is better spent on the answer.
 * Undefined when no non-local tier is configured.
 */
export function rerankModelOf(models: readonly ModelPlugin[]): ModelPlugin | undefined {
  const remote = models.filter((model) => !model.capabilities().local);
  return remote.find((model) => model.available ?? true) ?? remote[0];
}

/** The llm-rerank retriever over `firstStage`, or undefined (not registered) without a non-local tier. */
export function createLlmRerankRetriever(firstStage: RetrieverPlugin, models: readonly ModelPlugin[], options: Partial<LlmRerankOptions> = {}): LlmRerankRetriever | undefined {
  const model = rerankModelOf(models);
  return model ? new LlmRerankRetriever(firstStage, model, options) : undefined;
}
