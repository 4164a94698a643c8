import type { PlanningContext } from '../contracts/candidate-generator';
import { COST_MODEL_CONTRACT, type CostModelPlugin } from '../contracts/cost-model';
import type { CandidateEstimates, CandidatePlan, Estimate, Intent, PlanScore, PlanScoreWeights } from '../types';
import { callTierNames, mixedDebateTotals } from './call-tiers';
import { FIELD, FIELD_COUNT } from './estimate-fields';
import { scorePlan, scoreTotalOf } from './plan-score';
import { CandidateEstimateSet, EstimateRange } from './plan-records';
import { digestOf } from './planning-digest';
import {
  ACCURACY_HALF_WIDTH, APPROVAL_RISK_FACTOR, BASE_HALLUCINATION, CACHE_HIT_BASE, COST_BAND,
  MIXTURE_MODEL_ROUNDS, FUSION_SECONDS_PER_EXTRA_METHOD, LATENCY_BAND, OUTPUT_TOKENS_PER_ANSWER, PARALLEL_MODEL_ROUNDS,
  PREFILL_SECONDS_PER_TOKEN, PREFIX_REUSE, PREFIX_SHARING_STRATEGIES, PROBABILITY_HALF_WIDTH, PROMPT_OVERHEAD_TOKENS, TOKENS_BAND, TOOL_RESULT_CHUNKS_PER_STEP,
  VERIFIED_RISK_FACTOR, VERIFIER_CATCH_RATE, VERIFY_FLOOR, clampProbability, nonNegative,
} from './units';

/**
 * Heuristic cost model v1: closed-form estimates from plugin-reported capabilities
 * (every formula is stated in units.ts). No learning yet; the intervals are priors and
 * wide on purpose, so EXPLAIN never claims more certainty than the model has.
 */

/** Without a verifier there is no confidence to report: exactly zero, shared (estimates are read-only). */
const NO_VERIFICATION: Estimate = Object.freeze({ value: 0, low: 0, high: 0 });

const amount = (value: number, band: { readonly low: number; readonly high: number }): Estimate => new EstimateRange(value, value * band.low, value * band.high);

const probability = (value: number, halfWidth: number): Estimate => new EstimateRange(value, clampProbability(value - halfWidth), clampProbability(value + halfWidth));

/** Tokens of retrieved context a call on `tier` can hold beside the prompt, the goal and the answer. */
const contextRoom = (tier: { readonly contextWindow: number; readonly maxOutputTokens: number }, goalTokens: number) =>
  tier.contextWindow - PROMPT_OVERHEAD_TOKENS - goalTokens - Math.min(OUTPUT_TOKENS_PER_ANSWER, tier.maxOutputTokens);

/** Asymmetric band for small probabilities: half to double, plus an absolute floor on the upper side. */
const rate = (value: number): Estimate => new EstimateRange(value, value * 0.5, clampProbability(value * 2 + 0.05));

export class HeuristicCostModel implements CostModelPlugin {
  readonly contract = COST_MODEL_CONTRACT;
  readonly version = 'heuristic-v1';

  /**
   * The estimates with their intervals: the point values of estimateValues (one formula), each in
   * its field's band (units.ts). The planner's hot loop reads the values alone (planner/plan-pipeline.ts).
   */
  estimate(candidate: CandidatePlan, intent: Intent, context: PlanningContext): CandidateEstimates {
    this.estimateValues(candidate, intent, context, scratch, 0);
    return estimatesOf(scratch, 0, candidate.verification !== 'none');
  }

  /** The nine point estimates, in ESTIMATE_FIELDS order, written to out[offset…offset + 8]. */
  estimateValues(candidate: CandidatePlan, intent: Intent, context: PlanningContext, out: Float64Array, offset: number): void {
    const digest = digestOf(context);
    const goal = digest.forIntent(intent);
    const tier = digest.tier(candidate.modelTier).capabilities;
    const calls = digest.modelCalls(candidate.reasoning);
    const compression = digest.compression(candidate.compression);
    const verifier = digest.verifier(candidate.verification);
    const scope = digest.scope(candidate.sourceKinds);

    // Tokens: chunks that survive fusion and the final cut, times their mean size, compressed,
    // then capped by the context token budget and by what the tier's window leaves after prompt and answer.
    const outputPerCall = Math.min(OUTPUT_TOKENS_PER_ANSWER, tier.maxOutputTokens);
    const chunksKept = Math.min(context.retrieval.finalK, candidate.topK, scope.chunks);
    const wanted = chunksKept * scope.meanChunkTokens * compression.ratio;
    // A mixed-tier debate sends one context to every call: the smallest window of its tiers bounds it.
    // (Most plans make every call on one tier: no per-candidate arrays for them, this runs ~1,000 times a goal.)
    const callTiers = candidate.solverTiers ? callTierNames(candidate, calls).map((name) => digest.tier(name).capabilities) : undefined;
    const windowRoom = nonNegative(callTiers ? Math.min(...callTiers.map((callTier) => contextRoom(callTier, goal.goalTokens))) : contextRoom(tier, goal.goalTokens));
    const room = Math.min(windowRoom, context.retrieval.contextTokenBudget ?? Number.POSITIVE_INFINITY);
    const contextTokens = wanted > room ? room : wanted;
    const truncated = wanted > 0 ? 1 - contextTokens / wanted : 0;
    const inputPerCall = PROMPT_OVERHEAD_TOKENS + goal.goalTokens + contextTokens;
    // Retrieval that calls a model (an LLM reranker) reports its own spend per query.
    const retrievalFacts = digest.retrieval(candidate.retrieval);
    const retrieval = retrievalFacts.spend;
    const toolInput = (calls - 1) * (TOOL_RESULT_CHUNKS_PER_STEP[candidate.reasoning] ?? 0) * scope.meanChunkTokens;
    // Each call priced on its own tier when a debate's solvers are routed apart from its judge (call-tiers.ts).
    const mixed = callTiers ? mixedDebateTotals(callTiers, inputPerCall) : undefined;
    const tokens = (mixed ? mixed.tokens : calls * (inputPerCall + outputPerCall)) + toolInput + retrieval.tokens;
    const costUsd = mixed
      ? mixed.costUsd + retrieval.costUsd
      : (calls * (inputPerCall * tier.inputUsdPerMillion + outputPerCall * tier.outputUsdPerMillion) + toolInput * tier.inputUsdPerMillion) / 1e6 + retrieval.costUsd;

    // Latency: retrieval (summed or overlapped), fusion, compression, model rounds, verifier.
    const parallel = candidate.shape === 'parallel';
    const rounds = MIXTURE_MODEL_ROUNDS[candidate.reasoning] ?? (parallel ? Math.min(calls, PARALLEL_MODEL_ROUNDS) : calls);
    const perCall = tier.firstTokenSeconds + PREFILL_SECONDS_PER_TOKEN * inputPerCall + tier.secondsPerOutputToken * outputPerCall;
    const latencySeconds =
      (parallel ? retrievalFacts.latencyMaxMs : retrievalFacts.latencySumMs) / 1000 +
      FUSION_SECONDS_PER_EXTRA_METHOD * (candidate.retrieval.length - 1) +
      compression.seconds +
      (mixed ? mixed.seconds : rounds * perCall) +
      verifier.seconds;

    // Quality: evidence found × evidence kept × the model's use of it.
    const recall = clampProbability(goal.recall(candidate.retrieval) * goal.scopeFactor(candidate.sourceKinds));
    const contextLoss = clampProbability(1 - (1 - compression.loss) * (1 - truncated));
    const grounding = recall * (1 - contextLoss);
    // The primary class only: an incident that also reads as multi-hop has its own cause hops (graph-builder).
    // The gain is resolved by the planner (reasoner-gains.ts: fitted or configured, moved by observed
    // runs); a pair with none is 0, so no reasoner is preferred over one shot on a constant.
    const gain = context.reasonerGains?.[candidate.reasoning]?.[intent.primary] ?? 0;
    const qualityPrior = mixed ? mixed.qualityPrior : tier.qualityPrior;
    const quality = clampProbability(qualityPrior + gain * (1 - qualityPrior));
    const accuracy = clampProbability(grounding * quality);
    const verified = candidate.verification !== 'none';
    // A critic or judge lowers hallucination only through the reasoner's gain (quality above), which is
    // learned: a constant factor (0.75 for the mixtures) made debate win every goal on a free tier with no gain.
    const hallucination = clampProbability((BASE_HALLUCINATION + (1 - grounding) * (1 - quality)) * (1 - VERIFIER_CATCH_RATE * verifier.confidencePrior));
    const risk = clampProbability(
      goal.risk * Math.max(1 - accuracy, hallucination) * (candidate.approval ? APPROVAL_RISK_FACTOR : 1) * (verified ? VERIFIED_RISK_FACTOR : 1),
    );
    const sharesPrefix = calls > 1 && PREFIX_SHARING_STRATEGIES.has(candidate.reasoning);
    const cachePrior = clampProbability(CACHE_HIT_BASE + (sharesPrefix ? (PREFIX_REUSE * (calls - 1)) / calls : 0));
    const cacheHit = digest.cacheRates.rate(cachePrior, tier.modelId, intent.primary);
    const verificationConfidence = verified ? clampProbability(verifier.confidencePrior * (VERIFY_FLOOR + (1 - VERIFY_FLOOR) * grounding)) : 0;

    out[offset + FIELD.accuracy] = accuracy;
    out[offset + FIELD.costUsd] = costUsd;
    out[offset + FIELD.latencySeconds] = latencySeconds;
    out[offset + FIELD.tokens] = Math.round(tokens);
    out[offset + FIELD.risk] = risk;
    out[offset + FIELD.hallucination] = hallucination;
    out[offset + FIELD.contextLoss] = contextLoss;
    out[offset + FIELD.cacheHit] = cacheHit;
    out[offset + FIELD.verificationConfidence] = verificationConfidence;
  }

  score(estimates: CandidateEstimates, weights: PlanScoreWeights): PlanScore {
    return scorePlan(estimates, weights);
  }

  scoreValues(values: Float64Array, offset: number, weights: PlanScoreWeights): number {
    return scoreTotalOf(values, offset, weights);
  }
}

/** One candidate's values at a time: estimate() is called for a plan's few survivors and by EXPLAIN, never re-entrantly. */
const scratch = new Float64Array(FIELD_COUNT);

/** Point values in their bands: the interval each field's formula in units.ts states (records: plan-records.ts). */
function estimatesOf(values: Float64Array, offset: number, verified: boolean): CandidateEstimates {
  return new CandidateEstimateSet(
    probability(values[offset + FIELD.accuracy], ACCURACY_HALF_WIDTH),
    amount(values[offset + FIELD.costUsd], COST_BAND),
    amount(values[offset + FIELD.latencySeconds], LATENCY_BAND),
    amount(values[offset + FIELD.tokens], TOKENS_BAND),
    rate(values[offset + FIELD.risk]),
    rate(values[offset + FIELD.hallucination]),
    rate(values[offset + FIELD.contextLoss]),
    rate(values[offset + FIELD.cacheHit]),
    verified ? probability(values[offset + FIELD.verificationConfidence], PROBABILITY_HALF_WIDTH) : NO_VERIFICATION,
  );
}

export const heuristicCostModel = new HeuristicCostModel();
