import type { ModelPlugin } from '../../runtime/contracts/model';
import { RERANKER_CONTRACT, type RerankerCapabilities, type RerankerPlugin, type RerankRequest } from '../../runtime/contracts/reranker';
import { PREFILL_SECONDS_PER_TOKEN } from '../../runtime/costmodel/units';
import { ContextRuntimeError } from '../../runtime/errors';
import type { Hit } from '../../runtime/types';
import { gradeBatches, type GradedHead, type GradingOptions } from './llm-rerank-batches';
import { OUTPUT_TOKENS_PER_BATCH, OUTPUT_TOKENS_PER_GRADE } from './llm-rerank-prompt';

export interface LlmRerankerOptions extends GradingOptions {
  /** Head size the cost profile assumes (a request names its own). */
  readonly topN: number;
  /** Told how each rerank went (graded, fell back, cost): the place a caller hangs a span attribute or a caveat. */
  readonly onOutcome?: (outcome: LlmRerankOutcome) => void;
}

/**
 * 20 candidates in 2 parallel batches of 10: Zhuang et al. (NAACL 2024) and RankGPT rerank the
 * top 100, but each of those costs a remote call's worth of tokens; 20 bounds a query to ~2×(10 ×
 * 256 + 250) ≈ 5.4k input tokens (≈ $0.0022 on gpt-4.1-mini) and the first stage's top 20 already
 * holds what a final_k of 8 can use.
 */
export const DEFAULT_LLM_RERANK_OPTIONS: Omit<LlmRerankerOptions, 'onOutcome'> = Object.freeze({
  topN: 20,
  batchSize: 10,
  maxPassageTokens: 256,
  timeoutMs: 15_000,
  sensitiveSources: Object.freeze([]),
  sensitiveContent: 'local_only',
});

/** System prompt, query frame and the "Grades (JSON):" tail, in cl100k tokens (measured: 144, llm-rerank-retriever.test.ts), plus ~30 for a query and the chat framing. */
const BATCH_PROMPT_TOKENS = 144 + 30;
/** "[12] Title\n", the blank line between passages, and the fence lines around each (6 tokens, measured). */
const PASSAGE_FRAME_TOKENS = 18;

export interface LlmRerankCostProfile {
  readonly tier: string;
  readonly modelId: string;
  readonly candidates: number;
  readonly inputTokensPerCandidate: number;
  readonly outputTokensPerCandidate: number;
  readonly tokensPerQuery: number;
  /** candidates × (input tokens × input price + output tokens × output price). */
  readonly costUsdPerQuery: number;
  /** One batch's model time (the batches run in parallel). */
  readonly modelLatencyMs: number;
}

export interface LlmRerankOutcome {
  /** reranked: every eligible candidate graded; partial: some; fallback: none (first-stage order); skipped: fewer than 2 eligible. */
  readonly status: 'reranked' | 'partial' | 'fallback' | 'skipped';
  readonly candidates: number;
  readonly graded: number;
  readonly withheld: number;
  readonly failures: readonly string[];
  readonly inputTokens: number;
  readonly outputTokens: number;
  readonly costUsd: number;
  readonly latencyMs: number;
  readonly tier: string;
  readonly modelId: string;
}

/**
 * Asks a model tier for a graded relevance label of each of the head's hits (pointwise, batched;
 * why in llm-rerank-prompt.ts) and reorders them. A failing model never fails the rerank:
 * ungraded candidates keep their first-stage slots.
 */
export class LlmReranker implements RerankerPlugin {
  readonly contract = RERANKER_CONTRACT;
  readonly method = 'llm';
  readonly options: LlmRerankerOptions;
  /** Mean tokens of the passages actually sent; starts at the cap (the conservative guess). */
  private passageTokens: number;

  constructor(
    readonly model: ModelPlugin,
    options: Partial<LlmRerankerOptions> = {},
  ) {
    this.options = Object.freeze({ ...DEFAULT_LLM_RERANK_OPTIONS, ...options });
    this.passageTokens = this.options.maxPassageTokens;
  }

  costProfile(topN = this.options.topN): LlmRerankCostProfile {
    const model = this.model.capabilities();
    const { batchSize } = this.options;
    const inputTokensPerCandidate = Math.round(this.passageTokens + PASSAGE_FRAME_TOKENS + BATCH_PROMPT_TOKENS / batchSize);
    const outputTokensPerCandidate = OUTPUT_TOKENS_PER_GRADE + OUTPUT_TOKENS_PER_BATCH / batchSize;
    const costUsdPerQuery = (topN * (inputTokensPerCandidate * model.inputUsdPerMillion + outputTokensPerCandidate * model.outputUsdPerMillion)) / 1e6;
    const batchInput = batchSize * inputTokensPerCandidate;
    const batchOutput = batchSize * OUTPUT_TOKENS_PER_GRADE + OUTPUT_TOKENS_PER_BATCH;
    const modelLatencyMs = 1000 * (model.firstTokenSeconds + PREFILL_SECONDS_PER_TOKEN * batchInput + model.secondsPerOutputToken * batchOutput);
    return Object.freeze({
      tier: this.model.tier,
      modelId: model.modelId,
      candidates: topN,
      inputTokensPerCandidate,
      outputTokensPerCandidate,
      tokensPerQuery: Math.round(topN * (inputTokensPerCandidate + outputTokensPerCandidate)),
      costUsdPerQuery,
      modelLatencyMs,
    });
  }

  capabilities(): RerankerCapabilities & { readonly modelTier: string } {
    const profile = this.costProfile();
    const available = this.model.available ?? true;
    return Object.freeze({
      method: this.method,
      available,
      ...(available ? {} : { unavailableReason: `model tier ${this.model.tier} unavailable: ${this.model.unavailableReason ?? 'no reason given'}` }),
      latencyMs: profile.modelLatencyMs,
      costUsdPerQuery: profile.costUsdPerQuery,
      tokensPerQuery: profile.tokensPerQuery,
      sendsPassagesOffMachine: !this.model.capabilities().local,
      modelTier: this.model.tier,
    });
  }

  async rerank(request: RerankRequest): Promise<readonly Hit[]> {
    const local = this.model.capabilities().local;
    // The planner never picks a non-local grader for a local-only plan; an edited or hand-built one is refused here too.
    if (request.localOnly && !local) {
      throw new ContextRuntimeError('FORBIDDEN', `reranker ${this.method}: policy keeps this run on local models and tier ${this.model.tier} is not local`, {
        details: { tier: this.model.tier, rule: 'policy.local_only' },
      });
    }
    const head = request.hits.slice(0, Math.max(0, Math.floor(request.topN)));
    const sensitiveSources = [...this.options.sensitiveSources, ...(request.sensitiveSources ?? [])];
    request.signal?.throwIfAborted();
    const graded = await gradeBatches(this.model, request.text, head, { ...this.options, sensitiveSources, signal: request.signal, ...(request.admit ? { admit: request.admit } : {}) });
    // A batch failed by the abort is not a model failure to fall back from: the whole rerank ends.
    request.signal?.throwIfAborted();
    if (graded.sentTokens > 0) this.passageTokens = 0.8 * this.passageTokens + 0.2 * graded.sentTokens;
    this.options.onOutcome?.(outcomeOf(graded, head.length, this.model));
    // An unusable reply was still billed: every reply's usage counts, graded or not.
    if (graded.inputTokens + graded.outputTokens > 0 || graded.costUsd > 0) request.onSpend?.({ inputTokens: graded.inputTokens, outputTokens: graded.outputTokens, costUsd: graded.costUsd });
    return positional([...reorderHead(head, graded), ...request.hits.slice(head.length)], this.method);
  }
}

/** Positional scores: grades are coarse (0–3) and ungraded slots have none, so the order is the signal. */
export function positional(ordered: readonly Hit[], method: string): readonly Hit[] {
  return Object.freeze(ordered.map((hit, index) => Object.freeze({ ...hit, score: (ordered.length - index) / ordered.length, rank: index + 1, method })));
}

/**
 * Graded candidates re-sorted (grade, then first-stage order) into the slots graded candidates
 * held; ungraded ones (withheld, failed batch, missing grade) stay where the first stage put them.
 */
export function reorderHead(head: readonly Hit[], graded: GradedHead): readonly Hit[] {
  const slots = [...graded.grades.keys()].sort((a, b) => a - b);
  const sorted = [...slots].sort((a, b) => graded.grades.get(b)! - graded.grades.get(a)! || a - b);
  const result = [...head];
  slots.forEach((slot, index) => {
    result[slot] = head[sorted[index]];
  });
  return result;
}

function outcomeOf(graded: GradedHead, candidates: number, model: ModelPlugin): LlmRerankOutcome {
  const eligible = candidates - graded.withheld;
  const status = eligible < 2 ? 'skipped' : graded.grades.size === 0 ? 'fallback' : graded.grades.size < eligible ? 'partial' : 'reranked';
  return Object.freeze({
    status,
    candidates,
    graded: graded.grades.size,
    withheld: graded.withheld,
    failures: Object.freeze([...graded.failures]),
    inputTokens: graded.inputTokens,
    outputTokens: graded.outputTokens,
    costUsd: graded.costUsd,
    latencyMs: graded.latencyMs,
    tier: model.tier,
    modelId: model.capabilities().modelId,
  });
}
