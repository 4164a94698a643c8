/**
 * The same incident review with Context Runtime: the application states the goal, the sources
 * and its limits; the planner decides retrieval per source, reranking, the token budget, the
 * model call and the verification. The configuration is written here (not kept in a YAML file
 * elsewhere) so that bench:loc counts it as part of this side.
 */
import { writeFileSync } from 'node:fs';
import { stringify } from 'yaml';
import { ContextRuntime } from '../../server';

export interface ContextRuntimeOptions {
  readonly dataDir: string;
  readonly configPath: string;
  readonly baseURL: string;
  readonly model: string;
}

export async function openContextRuntimePipeline(options: ContextRuntimeOptions) {
  writeFileSync(options.configPath, stringify({
    database: { data_dir: options.dataDir },
    // gpt-4.1-mini list prices: the loopback model stands in for it.
    models: { tiers: [{ name: 'cheap', provider: 'openai-compatible', base_url: options.baseURL, model: options.model, input_usd_per_million: 0.4, output_usd_per_million: 1.6 }] },
    retrieval: { context_token_budget: 3000 },
    // The task checks citations, as the hand-rolled graph does; no second model call as a groundedness judge.
    verification: { judge: false },
    // One plan measured against one pipeline: the learner still learns from every run, but tries no other plan shape (an LLM reranker…).
    learning: { exploration_share: 0 },
  }));
  const runtime = await ContextRuntime.fromConfig(options.configPath);
  return {
    review: (goal: string, maxCostUsd: number) => runtime.run({
      goal,
      sources: ['demo-logs', 'demo-events', 'demo-git', 'demo-docs'],
      constraints: { max_cost_usd: maxCostUsd, require_citations: true },
    }),
    close: () => runtime.close(),
  };
}
