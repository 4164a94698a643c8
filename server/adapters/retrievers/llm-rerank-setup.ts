import type { ModelPlugin } from '../../runtime/contracts/model';
import type { RetrieverPlugin } from '../../runtime/contracts/retriever';
import { type LlmRerankOptions, LlmRerankRetriever } from './llm-rerank-retriever';
import { LlmReranker } from './llm-reranker';

/**
 * The tier the reranker calls: the first reachable language-model tier in config order (tiers are
 * listed cheapest/local first), as OpenIE picks its tier (graph/openie-setup.ts). A self-hosted
 * model (Ollama, vLLM: local) keeps passages on the machine, so it may grade for sensitive goals
 * too; a hosted one reports sendsPassagesOffMachine and the planner cuts it there. With none
 * reachable, the first one (listed unavailable, with the tier's reason). The built-in extractive
 * reader is never used: it cannot grade. Undefined when no tier is a language model.
 */
export function rerankModelOf(models: readonly ModelPlugin[]): ModelPlugin | undefined {
  const graders = models.filter((model) => model.capabilities().provider !== 'extractive');
  return graders.find((model) => model.available ?? true) ?? graders[0];
}

/** The `llm` Reranker plugin on that tier, or undefined (not registered) when no tier can grade. */
export function createLlmReranker(models: readonly ModelPlugin[], options: Partial<LlmRerankOptions> = {}): LlmReranker | undefined {
  const model = rerankModelOf(models);
  return model ? new LlmReranker(model, options) : undefined;
}

/** The llm-rerank retriever over `firstStage` (through `reranker` when given, so both share one), or undefined when no tier can grade. */
export function createLlmRerankRetriever(firstStage: RetrieverPlugin, models: readonly ModelPlugin[], options: Partial<LlmRerankOptions> = {}, reranker = createLlmReranker(models, options)): LlmRerankRetriever | undefined {
  return reranker ? new LlmRerankRetriever(firstStage, reranker, options) : undefined;
}
