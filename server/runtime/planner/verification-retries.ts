/**
 * What a retry after a failed required verification changes, and whether the budget has room for it.
 * Each attempt escalates on every axis it can: retrieval broadens (top_k doubles and a retriever the
 * first attempt did not use joins), the tier climbs the ladder (never to a non-local tier when the
 * plan is local-only), and a multi-hop reasoner gives way to a single shot over the broader evidence
 * (a different reasoner, without hop nodes to repeat). An attempt is planned only while the plan's
 * estimated cost and model tokens, every planned attempt and judge included, stay within
 * max_cost_usd and max_tokens: the worst case (every attempt runs) fits the budget.
 */
import type { RetrieverCapabilities } from '../contracts/retriever';
import type { TierInfo } from '../contracts/router';
import type { RetryAttempt } from '../execution/verification-gate';
import type { NodeEstimate } from '../ir/graph';
import type { CandidatePlan, Constraints, ReasoningStrategy } from '../types';
import { JUDGE_MAX_OUTPUT_TOKENS } from '../verification/groundedness-judge';

export interface RetryPlanInput {
  readonly candidate: CandidatePlan;
  /** The plan's own estimate (first attempt), before any retry or judge. */
  readonly planCostUsd: number;
  readonly planModelTokens: number;
  readonly tiers: readonly TierInfo[];
  readonly retrievers: readonly RetrieverCapabilities[];
  /** Reasoners that run without hop nodes (a retry repeats no bridge hop). */
  readonly singleCallStrategies: readonly ReasoningStrategy[];
  readonly localOnly: boolean;
  readonly constraints: Constraints;
  readonly maxAttempts: number;
  /** Ask a judge model when one is configured (config verification.judge). */
  readonly judge: boolean;
  readonly meanChunkTokens: number;
  /** The first attempt's answer node estimate: a retry's context is as large (the same token budget). */
  readonly reasonEstimate: NodeEstimate;
  readonly maxOutputTokens: number;
}

export interface RetryPlan {
  readonly retries: readonly RetryAttempt[];
  readonly judge?: { readonly tier: string; readonly localOnly: boolean; readonly estimate: NodeEstimate };
  /** Why fewer attempts than max_attempts were planned, when the budget cut them. */
  readonly budgetNote?: string;
}

const usable = (tier: TierInfo, localOnly: boolean) => tier.available && (!localOnly || tier.capabilities.local);

/** A call of `tier` reading `inputTokens` and writing at most `outputTokens`: the worst case the budget must hold. */
function callEstimate(tier: TierInfo | undefined, inputTokens: number, outputTokens: number): NodeEstimate {
  const capabilities = tier?.capabilities;
  const costUsd = capabilities ? (inputTokens * capabilities.inputUsdPerMillion + outputTokens * capabilities.outputUsdPerMillion) / 1_000_000 : 0;
  const latencySeconds = capabilities ? capabilities.firstTokenSeconds + outputTokens * capabilities.secondsPerOutputToken : 0.01;
  return { tokens: Math.round(inputTokens + outputTokens), costUsd, latencySeconds };
}

/** A judge needs a model that reads: the extractive reader only copies sentences, it cannot judge them. */
export function judgeTierOf(tiers: readonly TierInfo[], answerTier: string, localOnly: boolean): TierInfo | undefined {
  const judges = tiers.filter((tier) => usable(tier, localOnly) && tier.capabilities.provider !== 'extractive').sort((a, b) => a.rank - b.rank);
  return judges.find((tier) => tier.name === answerTier) ?? judges[0];
}

export function planVerificationRetries(input: RetryPlanInput): RetryPlan {
  const { candidate } = input;
  // Stronger means a higher quality prior, not a higher rank: the ladder is ordered for fallback, and
  // the extractive reader at its top (the tier that always answers) is no stronger than a model below it.
  const currentTier = input.tiers.find((tier) => tier.name === candidate.modelTier);
  const ladder = [...(currentTier ? [currentTier] : []), ...input.tiers.filter((tier) => usable(tier, input.localOnly) && tier.capabilities.qualityPrior > (currentTier?.capabilities.qualityPrior ?? Number.POSITIVE_INFINITY)).sort((a, b) => a.capabilities.qualityPrior - b.capabilities.qualityPrior)];
  const current = currentTier ? 0 : -1;
  const extraMethods = input.retrievers.filter((retriever) => retriever.available && !candidate.retrieval.includes(retriever.method) && !(input.localOnly && retriever.sendsPassagesOffMachine)).map((retriever) => retriever.method);
  const contextTokens = Math.max(0, input.reasonEstimate.tokens - input.maxOutputTokens);
  const judgeTier = input.judge ? judgeTierOf(input.tiers, candidate.modelTier, input.localOnly) : undefined;
  const judgeEstimate = judgeTier ? callEstimate(judgeTier, contextTokens + input.maxOutputTokens, JUDGE_MAX_OUTPUT_TOKENS) : undefined;
  let costUsd = input.planCostUsd;
  let tokens = input.planModelTokens;
  const fits = (estimate: NodeEstimate) =>
    (input.constraints.max_cost_usd === undefined || costUsd + estimate.costUsd <= input.constraints.max_cost_usd) && (input.constraints.max_tokens === undefined || tokens + estimate.tokens <= input.constraints.max_tokens);
  const spend = (estimate: NodeEstimate) => {
    costUsd += estimate.costUsd;
    tokens += estimate.tokens;
  };
  const judge = judgeTier && judgeEstimate && fits(judgeEstimate) ? { tier: judgeTier.name, localOnly: input.localOnly, estimate: judgeEstimate } : undefined;
  if (judge) spend(judge.estimate);
  const strategy = input.singleCallStrategies.includes(candidate.reasoning) ? candidate.reasoning : (input.singleCallStrategies[0] ?? candidate.reasoning);
  const retries: RetryAttempt[] = [];
  let budgetNote: string | undefined;
  for (let attempt = 2; attempt <= input.maxAttempts; attempt++) {
    const tier = current < 0 ? undefined : ladder[Math.min(ladder.length - 1, current + attempt - 1)];
    const tierName = tier?.name ?? candidate.modelTier;
    const k = candidate.topK * 2 ** (attempt - 1);
    const methods = [...candidate.retrieval, ...extraMethods.slice(0, attempt - 1)];
    const reasonEstimate = tier ? callEstimate(tier, contextTokens, input.maxOutputTokens) : input.reasonEstimate;
    const attemptJudge = judge ? judgeTierOf(input.tiers, tierName, input.localOnly) : undefined;
    const judgeCost = attemptJudge ? callEstimate(attemptJudge, contextTokens + input.maxOutputTokens, JUDGE_MAX_OUTPUT_TOKENS) : { tokens: 0, costUsd: 0, latencySeconds: 0 };
    const whole = { tokens: reasonEstimate.tokens + judgeCost.tokens, costUsd: reasonEstimate.costUsd + judgeCost.costUsd, latencySeconds: 0 };
    if (!fits(whole)) {
      budgetNote = `attempts ${attempt}–${input.maxAttempts} left out: they would exceed ${input.constraints.max_cost_usd !== undefined && costUsd + whole.costUsd > input.constraints.max_cost_usd ? `max_cost_usd ${input.constraints.max_cost_usd}` : `max_tokens ${input.constraints.max_tokens}`}`;
      break;
    }
    spend(whole);
    const changes = [`top_k ${candidate.topK} → ${k}`, ...(methods.length > candidate.retrieval.length ? [`+ ${methods.slice(candidate.retrieval.length).join(', ')}`] : []), ...(tierName !== candidate.modelTier ? [`tier ${candidate.modelTier} → ${tierName}`] : []), ...(strategy !== candidate.reasoning ? [`reasoner ${candidate.reasoning} → ${strategy}`] : [])];
    retries.push({
      methods,
      k,
      tier: tierName,
      strategy,
      why: changes.join(', '),
      retrieveEstimate: { tokens: Math.round(k * input.meanChunkTokens), costUsd: 0, latencySeconds: 0.01 },
      reasonEstimate,
      ...(attemptJudge ? { judgeTier: attemptJudge.name } : {}),
    });
  }
  return { retries, ...(judge ? { judge } : {}), ...(budgetNote ? { budgetNote } : {}) };
}
