/**
 * The tier of each model call of a plan and what the call costs there (issue 15.2: "each model call
 * routed independently"). A debate's solvers may be routed to other tiers than its judge
 * (CandidatePlan.solverTiers); every other plan makes all its calls on the candidate's tier.
 *
 * Per call on tier t, with the plan's prompt of `input` tokens:
 *   output  = min(OUTPUT_TOKENS_PER_ANSWER, t.maxOutputTokens)                          tokens
 *   usd     = (input · t.inputUsdPerMillion + output · t.outputUsdPerMillion) / 1e6      dollars
 *   seconds = t.firstTokenSeconds + PREFILL_SECONDS_PER_TOKEN · input + t.secondsPerOutputToken · output
 * A debate's time is its slowest solver (they run side by side) plus its judge. Its quality prior
 * is half the judge's and half the solvers' mean: the judge writes the cited answer, from the
 * solvers' answers as much as from its own reading, so one judge call weighs as much as all the
 * solvers (a plain mean would rate a fast judge over two strong solvers as high as a strong judge
 * over one of each, at the same price). On one tier it is that tier's prior: single-tier plans are unchanged.
 */
import type { ModelCapabilities } from '../contracts/model';
import type { CandidatePlan } from '../types';
import { OUTPUT_TOKENS_PER_ANSWER, PREFILL_SECONDS_PER_TOKEN } from './units';

type CallTierFields = Pick<CandidatePlan, 'modelTier' | 'solverTiers'>;

/** Tier names of the plan's calls: the solvers (slot order), then the judge's and any others' on modelTier. */
export function callTierNames(candidate: CallTierFields, calls: number): readonly string[] {
  const solvers = candidate.solverTiers ?? [];
  return Array.from({ length: Math.max(calls, solvers.length + 1) }, (_, index) => solvers[index] ?? candidate.modelTier);
}

/** Every tier the plan sends a prompt to (each once), the judge's first. */
export function tiersUsed(candidate: CallTierFields): readonly string[] {
  return [...new Set([candidate.modelTier, ...(candidate.solverTiers ?? [])])];
}

export interface CallPrice {
  readonly outputTokens: number;
  readonly costUsd: number;
  readonly seconds: number;
}

export function callPrice(tier: ModelCapabilities, inputTokens: number): CallPrice {
  const outputTokens = Math.min(OUTPUT_TOKENS_PER_ANSWER, tier.maxOutputTokens);
  return {
    outputTokens,
    costUsd: (inputTokens * tier.inputUsdPerMillion + outputTokens * tier.outputUsdPerMillion) / 1e6,
    seconds: tier.firstTokenSeconds + PREFILL_SECONDS_PER_TOKEN * inputTokens + tier.secondsPerOutputToken * outputTokens,
  };
}

/** What a mixed-tier debate's calls add up to: the cost model's model terms for the plan. */
export interface MixedDebateTotals {
  readonly prices: readonly CallPrice[];
  readonly tokens: number;
  readonly costUsd: number;
  /** Slowest solver, then the judge. */
  readonly seconds: number;
  readonly qualityPrior: number;
}

/** `tiers` in call order (callTierNames): the solvers, then the judge last. */
export function mixedDebateTotals(tiers: readonly ModelCapabilities[], inputTokens: number): MixedDebateTotals {
  const prices = tiers.map((tier) => callPrice(tier, inputTokens));
  const judge = prices[prices.length - 1];
  const solvers = prices.slice(0, -1);
  return {
    prices,
    tokens: prices.reduce((sum, price) => sum + inputTokens + price.outputTokens, 0),
    costUsd: prices.reduce((sum, price) => sum + price.costUsd, 0),
    seconds: Math.max(0, ...solvers.map((price) => price.seconds)) + judge.seconds,
    qualityPrior: (tiers[tiers.length - 1].qualityPrior + tiers.slice(0, -1).reduce((sum, tier) => sum + tier.qualityPrior, 0) / Math.max(1, tiers.length - 1)) / 2,
  };
}

/**
 * Each call's share of the plan's model tokens, dollars and seconds, in call order: how the graph
 * builder splits the candidate's (possibly learned) totals over the reason nodes. The prompt size
 * is read back from the plan's model tokens (every call reads the same prompt). Seconds are shares
 * of the plan's model time (the solvers overlap, so a solver's share is its own time over the
 * slowest solver's plus the judge's).
 */
export function mixedDebateShares(tiers: readonly ModelCapabilities[], modelTokens: number): readonly { readonly tokens: number; readonly costUsd: number; readonly seconds: number }[] {
  const outputs = tiers.reduce((sum, tier) => sum + Math.min(OUTPUT_TOKENS_PER_ANSWER, tier.maxOutputTokens), 0);
  const inputTokens = Math.max(0, (modelTokens - outputs) / tiers.length);
  const totals = mixedDebateTotals(tiers, inputTokens);
  const share = (part: number, whole: number, count: number) => (whole > 0 ? part / whole : 1 / count);
  return totals.prices.map((price) => ({
    tokens: share(inputTokens + price.outputTokens, totals.tokens, tiers.length),
    costUsd: share(price.costUsd, totals.costUsd, tiers.length),
    seconds: share(price.seconds, totals.seconds, tiers.length),
  }));
}
