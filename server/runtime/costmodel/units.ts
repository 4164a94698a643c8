/**
 * Cost-model units and formulas, in one place (after PostgreSQL's costsize.c).
 *
 * UNITS
 *   tokens    model tokens (≈ 4 characters of English; OpenAI tokenizer guidance)
 *   USD       US dollars; model prices are USD per million tokens (ModelCapabilities)
 *   seconds   wall-clock; retriever latency is reported in ms and converted here
 *   p ∈ [0,1] probabilities and fractions (accuracy, risk, hallucination, loss, cache hit)
 *
 * FORMULAS (per candidate; c = candidate, t = its tier, r = its reasoner)
 *   meanChunk      = Σ source.tokenCount / Σ source.chunkCount over the candidate's scope
 *                    (DEFAULT_CHUNK_TOKENS when the scope is empty)
 *   chunksKept     = min(finalK, topK, chunks in scope)
 *   contextTokens  = chunksKept · meanChunk · compression.expectedRatio, capped at the
 *                    tier's window minus prompt, goal and output; the cut part adds to contextLoss
 *   inputPerCall   = PROMPT_OVERHEAD_TOKENS + goalTokens + contextTokens
 *   outputPerCall  = min(OUTPUT_TOKENS_PER_ANSWER, t.maxOutputTokens)
 *   toolInput      = (calls − 1) · TOOL_RESULT_CHUNKS_PER_STEP[r] · meanChunk   (a tool loop's later calls re-read the tools' passages)
 *   tokens         = r.expectedModelCalls · (inputPerCall + outputPerCall) + toolInput + Σ retriever.tokensPerQuery
 *   costUsd        = (r.calls · (inputPerCall · t.inputUsdPerMillion + outputPerCall · t.outputUsdPerMillion) + toolInput · t.inputUsdPerMillion) / 1e6
 *                    + Σ retriever.costUsdPerQuery   (retrievers that call a model: the LLM reranker)
 *   latencySeconds = retrieval (Σ latencyMs sequential | max latencyMs parallel) / 1000
 *                    + FUSION_SECONDS_PER_EXTRA_METHOD · (methods − 1) + compression seconds
 *                    + rounds · (t.firstTokenSeconds + PREFILL_SECONDS_PER_TOKEN · inputPerCall
 *                              + t.secondsPerOutputToken · outputPerCall) + verifier seconds
 *                    rounds = calls (sequential) | min(calls, PARALLEL_MODEL_ROUNDS) (parallel)
 *                           | MIXTURE_MODEL_ROUNDS[r] (a mixture: its branches are parallel graph nodes in either shape)
 *   recall         = fused recall of the methods' recallPrior[intent]:
 *                    max · ρ when a member reports a measured fusion ratio ρ for the pair and intent
 *                        (RetrieverCapabilities.fusionRatios: fused score / better member's, fitted on labelled queries), else
 *                    max + FUSION_GAIN · (1 − Π(1 − rᵢ) − max)   (rankers are correlated)
 *                        − FUSION_DILUTION · Σ (max − rᵢ)   (a weaker ranker pulls the fused list down)
 *                    × SCOPE_FOCUS_GAIN when a narrowed scope covers the intent's kinds,
 *                    × SCOPE_MISS_FACTOR when it lacks one of them
 *   contextLoss    = 1 − (1 − compression.expectedLoss)(1 − truncatedFraction)
 *   quality        = t.qualityPrior + gain[r][intent.primary] · (1 − t.qualityPrior)
 *                    gain learned from observed runs, shrunk toward a fitted/configured target or 0 (reasoner-gains.ts)
 *   accuracy       = recall · (1 − contextLoss) · quality
 *   hallucination  = (BASE_HALLUCINATION + (1 − recall·(1 − contextLoss)) · (1 − quality))
 *                    · (1 − VERIFIER_CATCH_RATE · verifier.confidencePrior)
 *                    (a critic's effect is in the reasoner's learned gain, not a constant factor)
 *   risk           = INTENT_RISK[class] · max(1 − accuracy, hallucination)
 *                    · (approval ? APPROVAL_RISK_FACTOR : 1) · (verified ? VERIFIED_RISK_FACTOR : 1)
 *   cacheHit       = CACHE_HIT_BASE + PREFIX_REUSE · (calls − 1) / calls   (same prompt prefix re-sent; PREFIX_SHARING_STRATEGIES only)
 *                    as the prior of the measured model-context cache hit rate of (t.modelId, intent.primary),
 *                    shrunk toward it with CACHE_PRIOR_LOOKUPS pseudo-lookups (cache-hit-rate.ts)
 *   verificationConfidence = verifier.confidencePrior · (VERIFY_FLOOR + (1 − VERIFY_FLOOR) · recall·(1 − contextLoss)); 0 without a verifier
 *
 * INTERVALS are v1 priors, deliberately wide (the calibration statistics narrow them later):
 * multiplicative bands for amounts, additive bands for probabilities, all clamped.
 */

/** Tokens per chunk when no source reports sizes (a typical 512-token chunker at ~40% fill). */
export const DEFAULT_CHUNK_TOKENS = 200;
/** System prompt, citation instructions and formatting around the context. */
export const PROMPT_OVERHEAD_TOKENS = 350;
/** One answer with citations: a few paragraphs. */
export const OUTPUT_TOKENS_PER_ANSWER = 350;
export const CHARS_PER_TOKEN = 4;
/** Prompt processing time per input token (prefill), on top of the tier's first-token time. */
export const PREFILL_SECONDS_PER_TOKEN = 0.00005;
export const FUSION_SECONDS_PER_EXTRA_METHOD = 0.002;
/** Plan, parallel workers, critic: three rounds however many worker calls. */
export const PARALLEL_MODEL_ROUNDS = 3;
export const DEFAULT_RETRIEVER_LATENCY_MS = 50;

export const COMPRESSION_SECONDS: Readonly<Record<string, number>> = { none: 0, clip: 0.001, dedup_clip: 0.004, sentence_select: 0.02 };
export const DEFAULT_COMPRESSION_SECONDS = 0.02;
/** In-tree verifiers are deterministic checks over the answer and context (no model call). */
export const VERIFIER_SECONDS: Readonly<Record<string, number>> = { none: 0, citation: 0.005, citation_grounded: 0.03 };
export const DEFAULT_VERIFIER_SECONDS = 0.05;

/** Recall prior when a retriever reports none for the intent. */
export const NEUTRAL_RECALL_PRIOR = 0.5;
/**
 * The fusion formula's constants are priors for pairs nothing has measured: a pair and intent class
 * with a measured ratio (fitted-fusion-ratios.ts) uses it instead (issue 16: measured out of fold,
 * these constants rated graph fused with rm3 or rerank above graph alone, and the fused plans lost).
 *
 * Share of the independent-union gain that fusion realises. RRF gains are real but rankers overlap
 * (Cormack et al. 2009), and bench:retrieval measured at most +0.01 nDCG@10 from any fusion here.
 */
export const FUSION_GAIN = 0.25;
/**
 * What a weaker ranker costs the fused list: RRF helps when the rankers are about equally good
 * and hurts when one is much weaker (Vogt & Cottrell 1999). Measured by bench:retrieval: BM25 fused
 * with word-vector dense search gained nothing on SciFact (0.695 → 0.696), and graph PPR fused with
 * a reranked BM25 lost 12 nDCG@10 points on MuSiQue against graph alone.
 */
export const FUSION_DILUTION = 1;
export const SCOPE_FOCUS_GAIN = 1.03;
export const SCOPE_MISS_FACTOR = 0.7;
/**
 * Passages a tool-calling step adds to the prompts after it (the tool_loop reasoner returns at most
 * 4 per call): each call after the first re-reads the context plus these, at the scope's mean chunk size.
 */
export const TOOL_RESULT_CHUNKS_PER_STEP: Readonly<Record<string, number>> = { tool_loop: 4 };
/**
 * Sequential model rounds of a mixture whose branches run as parallel graph nodes, whatever the
 * candidate's shape: plan_worker_critic is decompose, workers, critic, merge; debate is solvers, judge.
 * These are priors; what a mixture really costs in time is learned per reasoner (observation-learner.ts,
 * the intent+reasoner group), and its quality gain from its runs' outcomes (reasoner-gains.ts).
 */
export const MIXTURE_MODEL_ROUNDS: Readonly<Record<string, number>> = { plan_worker_critic: 4, debate: 2 };
/**
 * Strategies whose calls re-send one prompt prefix, so a provider's prompt cache serves the later
 * calls: none of the built ones. The mixtures' calls each start with their own system prompt (decompose,
 * worker, critic, merge; each solver's angle, the judge), and a worker reads its own retrieval; a
 * prefix cache matches from the first token, so these calls share nothing it can reuse. Counting
 * them (0.55 for six calls) made plan_worker_critic win every goal on a free loopback tier.
 */
export const PREFIX_SHARING_STRATEGIES: ReadonlySet<string> = new Set<string>();
export const BASE_HALLUCINATION = 0.02;
export const VERIFIER_CATCH_RATE = 0.6;
export const INTENT_RISK: Readonly<Record<string, number>> = { high_risk: 0.9, sensitive: 0.7, incident: 0.4, exact_id: 0.2, multi_hop: 0.3, conceptual: 0.2 };
export const APPROVAL_RISK_FACTOR = 0.3;
export const VERIFIED_RISK_FACTOR = 0.7;
export const CACHE_HIT_BASE = 0.05;
/** Lookups the cache-hit prior counts for against measured ones: twenty lookups move the estimate halfway. */
export const CACHE_PRIOR_LOOKUPS = 20;
/** Grid the measured cache rate's offset and slope are rounded to: they are in the plan-cache key, so a finer grid re-plans after nearly every lookup. */
export const CACHE_RATE_STEP = 0.05;
export const PREFIX_REUSE = 0.6;
export const VERIFY_FLOOR = 0.5;

/** Interval bands: [value·LOW, value·HIGH] for amounts, value ± HALF_WIDTH for probabilities. */
export const TOKENS_BAND = { low: 0.5, high: 2 } as const;
export const COST_BAND = { low: 0.4, high: 2.5 } as const;
/** Latency tails are long (provider queues): p95 at 3× the typical value. */
export const LATENCY_BAND = { low: 0.5, high: 3 } as const;
export const ACCURACY_HALF_WIDTH = 0.2;
export const PROBABILITY_HALF_WIDTH = 0.15;

/** PlanScore references: the value at which a penalty term reaches 0.5 (see plan-score.ts). */
export const COST_REFERENCE_USD = 0.01;
export const LATENCY_REFERENCE_SECONDS = 10;

export const clamp = (value: number, low: number, high: number): number => (value < low ? low : value > high ? high : value);
export const clampProbability = (value: number): number => (value < 0 ? 0 : value > 1 ? 1 : Number.isNaN(value) ? 0 : value);
export const nonNegative = (value: number): number => (value > 0 ? value : 0);

/*
 * LEARNED ESTIMATOR (learned-v2, observation-learner.ts): the v1 heuristic is the prior, v2 corrects it.
 *   residual  r = ln((actual + floor) / (estimate + floor))   for amounts (tokens, costUsd, latencySeconds)
 *             r = actual − estimate                          for probabilities
 *   center    μ = n·mean(r) / (n + PRIOR_PSEUDO_SAMPLES)     (shrunk toward 0 = "the heuristic is right")
 *   interval  n ≥ CONFORMAL_MIN_SAMPLES: split-conformal order statistics of r − μ at the plotting
 *             positions (n+1)·α/2 and (n+1)(1−α/2), interpolated (Vovk, Gammerman & Shafer 2005;
 *             Lei et al. 2018: coverage 1 − α on average; calibration-math.ts says why not the rounded ranks)
 *             9 ≤ n < CONFORMAL_MIN_SAMPLES: μ ± the absolute score |r − μ| at the position (n+1)(1 − α)
 *             (calibration-math.ts conformalRadius: one rank for both tails, coverage 1 − α on average)
 *             n < 9: Normal-Inverse-Gamma posterior predictive (Student t, Gelman et al. BDA3 §3.3)
 *             whose prior scale is the v1 band read as a 90% interval, so few samples mean a wide interval.
 *   groups    (field, intent class, plan shape) → (field, intent class, reasoner) → (field, intent class) → (field): the most specific
 *             group with CONFORMAL_MIN_SAMPLES observations, else the largest one. Accuracy is learned from
 *             single_shot runs only, in their (tier, retrieval) groups, and read there for every reasoner:
 *             a reasoner's quality gain is owned by reasoner-gains.ts (observation-learner.ts, accuracyShape).
 *   features  within the group, tokens/cost/latency residuals are regressed (ridge, RIDGE_PENALTY) on
 *             x = ln(1 + [goal tokens, source tokens, top_k]) centred at the featured runs' mean:
 *             r̂ = μ + β·(x − x̄), and the conformal scores are (r − r̂)/(1 − h), h the run's leverage
 *             on μ and β: each run's error as if it had been left out of the fit (feature-regression.ts).
 *             Runs stored without features count toward μ only.
 */
/** Two-sided miscoverage of the reported interval: p05–p95. */
export const INTERVAL_ALPHA = 0.1;
/** z for the 90% interval, to read the v1 bands as a prior standard deviation. */
export const Z_90 = 1.6448536269514722;
/** Pseudo-observations the heuristic's own estimate counts for when the mean correction is learned. */
export const PRIOR_PSEUDO_SAMPLES = 3;
/** Degrees of freedom of the prior on the residual spread: weak, so data takes over after a handful of runs. */
export const PRIOR_DEGREES_OF_FREEDOM = 2;
/** ⌈(n + 1)(1 − α/2)⌉ ≤ n needs n ≥ 19 at α = 0.1; one more for a stable lower order statistic. */
export const CONFORMAL_MIN_SAMPLES = 20;
/** Most recent observations per group: the runtime drifts (corpus, models, cache), old errors age out. */
export const LEARNING_WINDOW = 400;
/** Log-space floors, so a zero estimate or actual has a finite ratio (1 token, $1e-6, 1 ms). */
export const LOG_FLOORS: Readonly<Record<string, number>> = { tokens: 1, costUsd: 1e-6, latencySeconds: 0.001 };
/**
 * Ridge penalty of learned-v2's per-group regression on log request features (feature-regression.ts):
 * pseudo-samples of unit log-spread pulling the slopes to 0, so a handful of runs barely tilt the group mean.
 */
export const RIDGE_PENALTY = 3;
