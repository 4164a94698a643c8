/**
 * The EXPLAIN object: one inspectable answer to "why this plan?" (and with ANALYZE,
 * "how far off were the estimates?"). Plain JSON; the CLI prints it as a tree, the console as tables.
 */
import type { Contradiction } from '../contracts/knowledge';
import type { PlanCacheKey, PlanCacheNearMiss } from '../contracts/plan-cache';
import type { RetrieverCapabilities } from '../contracts/retriever';
import type { TierInfo } from '../contracts/router';
import type { StoreCapabilities } from '../contracts/store';
import type { VerificationResult } from '../contracts/verifier';
import type { RunStatus } from '../contracts/run-store';
import type { RunSpendSnapshot } from '../contracts/scheduler';
import type { BudgetLimitsShown } from './budget-text';
import type { EstimatorExplain } from '../costmodel/learned-cost-model';
import type { ResolvedGain } from '../costmodel/reasoner-gains';
import type { BanditExplain } from '../learning/bandit-learner';
import type { PlanArm } from '../learning/plan-arms';
import type { ExecutionGraph, NodeEstimate, NodeKind } from '../ir/graph';
import type { CandidateEstimates, CandidatePlan, Citation, ConstraintViolation, Constraints, Estimate, Intent, IntentClass, PlanScore, PlanScoreWeights, RejectedCandidate, RejectedSource } from '../types';

/** Present when `rejectedCandidates` lists only part of what the planner cut (a run's stored EXPLAIN: stored-explain.ts). */
export interface RejectedSummary {
  /** Candidates the planner rejected in all. */
  readonly total: number;
  /** How many `rejectedCandidates` lists. */
  readonly shown: number;
  /** The most listed of each stage and rule (retention.rejected_candidates_kept). */
  readonly keptPerRule: number;
  /** Each stage and rule: how many it cut, and how many of those are listed. */
  readonly byRule: readonly { readonly stage: RejectedCandidate['stage']; readonly rule: string; readonly count: number; readonly shown: number }[];
}

export interface ExplainedCandidate {
  readonly id: string;
  /** One line: "bm25 over logs+git+docs → local/single_shot, clip, citation". */
  readonly description: string;
  readonly choice: CandidatePlan;
  readonly estimates: CandidateEstimates;
  readonly score: PlanScore;
  readonly feasible: boolean;
  readonly violations: readonly ConstraintViolation[];
  readonly chosen: boolean;
}

export interface TokenBudget {
  readonly budget: number;
  readonly finalK: number;
  readonly estimatedContextTokens: number;
  /** Filled by ANALYZE / run: what went in, by source, and what was compressed or dropped. */
  readonly bySource?: readonly { readonly source: string; readonly tokens: number; readonly items: number }[];
  readonly dropped?: readonly { readonly chunkId: string; readonly source: string; readonly tokens: number; readonly why: string }[];
  readonly compressedTokensRemoved?: number;
}

export interface VerificationPlan {
  readonly method: string;
  readonly requireCitations: boolean;
  readonly approval: boolean;
  readonly reasons: readonly string[];
}

export interface PlanCacheStatus {
  readonly status: 'hit' | 'miss' | 'disabled';
  readonly key: PlanCacheKey;
  /** On a hit: the served plan's intent, its similarity to this goal's, and whether the in-process front answered. */
  readonly servedIntent?: string;
  readonly similarity?: number;
  readonly tier?: 'memory' | 'store';
  /** Digest of the user whose goal this plan was made for: a later hit names the goal only to them (access/cached-intent-access.ts). */
  readonly askerDigest?: string;
  /** On a miss: the closest stored plan and which key parts kept it from being served. */
  readonly nearMiss?: PlanCacheNearMiss;
  /** Set when the cache could not answer (its embedder or store failed), so this plan was made cold. */
  readonly error?: string;
}

export interface Misestimate {
  /** actual / estimate (PostgreSQL's rows-misestimate factor); > 1 = under-estimated. */
  readonly factor: number;
  readonly direction: 'under' | 'over' | 'exact';
}

/** How well the estimator has done on one field for the plan's intent class (its pg_statistic row). */
export interface FieldCalibration {
  readonly estimator: string;
  readonly intentClass: IntentClass;
  readonly count: number;
  readonly meanAbsoluteError: number;
  /** Fraction of past actuals inside the predicted p05–p95 interval (0.9 = calibrated). */
  readonly intervalCoverage: number;
  readonly intervalWidth: number;
}

export interface NodeCalibration {
  readonly tokens: FieldCalibration;
  readonly costUsd: FieldCalibration;
  readonly latencySeconds: FieldCalibration;
}

/** One model call a node made, as EXPLAIN ANALYZE shows it. */
export interface AnalyzedModelCall {
  readonly tier: string;
  readonly modelId: string;
  /** The model-context cache: `hit` = answered from it (the model was not called), `off` = not consulted. */
  readonly cache: 'hit' | 'miss' | 'off';
  /** On a hit: the tokens the original call spent. */
  readonly savedTokens?: number;
  /** Input tokens the provider read from its own prompt cache, when it reports them. */
  readonly providerCachedInputTokens?: number;
}

export interface AnalyzedNode {
  readonly nodeId: string;
  readonly kind: NodeKind;
  readonly status: 'done' | 'skipped' | 'pending' | 'failed';
  readonly attempts: number;
  readonly estimate: NodeEstimate;
  readonly actual?: NodeEstimate;
  readonly misestimate?: { readonly tokens: Misestimate; readonly costUsd: Misestimate; readonly latencySeconds: Misestimate };
  /** The estimator's run-level calibration for these fields and the plan's intent class, shown beside the misestimate. */
  readonly calibration?: NodeCalibration;
  /** A reason node's model calls, each with its cache outcome. */
  readonly modelCalls?: readonly AnalyzedModelCall[];
  /** The run's cost, model tokens and execution time once this node finished (set against `AnalyzeSection.limits`). */
  readonly budget?: RunSpendSnapshot;
  /** A compress node that cut something: what it omitted and what it was derived from. */
  readonly compression?: AnalyzedCompression;
  /** A tool loop's steps, each model call with its tool calls, against the cost model's expected steps. */
  readonly toolLoop?: AnalyzedToolLoop;
}

/** A compressed context's cuts and lineage, as EXPLAIN ANALYZE and the plan view show them. */
export interface AnalyzedCompression {
  readonly tokensBefore: number;
  readonly tokensAfter: number;
  /** Per chunk cut: the tokens and how many of its sentences were removed, and why. */
  readonly omitted: readonly { readonly chunkId: string; readonly tokensRemoved: number; readonly sentences?: number; readonly why: string }[];
  /** The source versions it was derived from (a newer version of any is its refresh trigger), with the chunks read from each. */
  readonly derivedFrom: readonly { readonly sourceName: string; readonly sourceVersionId: string; readonly chunks: number }[];
  /** The kept compressed context (a Knowledge Layer summary) it was served from, or kept as. */
  readonly servedFrom?: string;
  readonly storedAs?: string;
}

/** A tool loop's model calls, each with the tools it called, against the cost model's expected steps. */
export interface AnalyzedToolLoop {
  /** Model calls the cost model expected, and what each was expected to spend (the node's estimate split over them). */
  readonly stepsEstimated: number;
  readonly estimatePerStep: { readonly tokens: number; readonly costUsd: number };
  readonly maxSteps: number;
  readonly steps: readonly { readonly step: number; readonly tools: readonly string[]; readonly tokens: number; readonly costUsd: number; readonly latencyMs: number; readonly finish: 'answer' | 'tool_calls' }[];
  /** How the loop ended: answered, at the step cap, or refused by the run's budget (with the refusal). */
  readonly end: string;
}

export interface AnalyzeSection {
  readonly runId: string;
  readonly status: RunStatus;
  readonly nodes: readonly AnalyzedNode[];
  readonly totals: { readonly estimate: NodeEstimate; readonly actual: NodeEstimate; readonly misestimate: AnalyzedNode['misestimate'] };
  /** Run-level calibration of the estimator (tokens, cost, latency) for this intent class. */
  readonly calibration?: NodeCalibration;
  /** The request's run-time limits (enforced while the run ran), when it set any. */
  readonly limits?: BudgetLimitsShown;
}

export interface ExplainResult {
  readonly goal: string;
  readonly planHash: string;
  readonly intent: Intent;
  readonly constraints: Constraints;
  readonly enumerated: number;
  /** Every scored candidate, best first (feasible before infeasible). */
  readonly candidates: readonly ExplainedCandidate[];
  readonly chosen: ExplainedCandidate;
  readonly rejectedCandidates: readonly RejectedCandidate[];
  /** Set when `rejectedCandidates` is partial (a stored run keeps the best of each rule): the counts of all of them. */
  readonly rejectedSummary?: RejectedSummary;
  readonly selectedSources: readonly string[];
  readonly rejectedSources: readonly RejectedSource[];
  /**
   * Facts the selected sources disagree on about what the goal names: the answer will carry them
   * as caveats (it may add ones its own cited statements touch; knowledge/goal-contradictions.ts).
   */
  readonly contradictions: readonly Contradiction[];
  /** Other disagreements known in the selected sources, about subjects the goal does not name: no caveat. */
  readonly otherContradictions?: readonly Contradiction[];
  readonly estimates: { readonly costUsd: Estimate; readonly accuracy: Estimate; readonly latencySeconds: Estimate; readonly tokens: Estimate };
  readonly tokenBudget: TokenBudget;
  readonly verificationPlan: VerificationPlan;
  readonly planCache: PlanCacheStatus;
  readonly graph: ExecutionGraph;
  readonly costModel: { readonly version: string; readonly weights: PlanScoreWeights };
  readonly capabilities: { readonly store: StoreCapabilities; readonly retrievers: readonly RetrieverCapabilities[]; readonly tiers: readonly TierInfo[] };
  readonly planningMs: number;
  /** Set when an operator edited the graph before running it: the planner's own graph had `plannerNodes` nodes. */
  readonly edited?: { readonly basePlanHash: string; readonly plannerNodes: number; readonly nodes: number };
  readonly analyze?: AnalyzeSection;
  /** Present when the online bandit chose the plan (config `learning.enabled`): arm, estimate, explored. */
  readonly learning?: BanditExplain;
  /** The feasible arms the bandit chose among (default plan first); a plan-cache hit chooses among them again. */
  readonly learningArms?: readonly PlanArm[];
  /** Which estimator's numbers ranked the chosen plan (learned-v2 over the heuristic prior) and over how many runs. */
  readonly estimator?: EstimatorExplain;
  /** The chosen reasoner's quality gain for the intent class and what decided it (reasoner-gains.ts): fitted, configured, observed or the 0 prior. */
  readonly reasonerGain?: { readonly reasoner: string; readonly intentClass: IntentClass; readonly text: string } & Partial<ResolvedGain>;
}

export interface RunResult {
  readonly runId: string;
  readonly status: RunStatus;
  readonly answer?: string;
  readonly citations: readonly Citation[];
  readonly verification?: VerificationResult;
  /** Things the reader should know: failed verification, contradictions, fallbacks, omitted content. */
  readonly caveats: readonly string[];
  /** The answer kept as a summary node derived_from its cited chunks (Knowledge page lineage). */
  readonly answerNodeId?: string;
  readonly pendingApproval?: { readonly nodeId: string; readonly reason: string };
  readonly error?: string;
  readonly explain: ExplainResult;
}

export interface SimulateResult {
  readonly goal: string;
  readonly planHash: string;
  readonly expected: { readonly costUsd: Estimate; readonly latencySeconds: Estimate; readonly tokens: Estimate };
  readonly expectedConfidence: Estimate;
  readonly expectedModels: readonly string[];
  readonly expectedRetrieval: readonly string[];
  /** Observations behind the intervals; 0 = pure prior (honestly wide). */
  readonly basedOnSamples: number;
  /** Which quantiles the intervals are (learned-v2 quotes p05–p95). */
  readonly interval?: 'p05-p95';
  /** The estimator that produced `expected` ("learned-v2"), over the planner's heuristic prior. */
  readonly estimator?: string;
  readonly intentClass?: IntentClass;
  /** Tier/reasoner/retrieval key the learned correction is grouped by. */
  readonly planShape?: string;
  /** The heuristic-v1 estimates before correction. */
  readonly prior?: { readonly costUsd: Estimate; readonly latencySeconds: Estimate; readonly tokens: Estimate };
  /** Per quoted field: how many observations, from which group, by which method (prior | bayes | conformal). */
  readonly samples?: Readonly<Record<'costUsd' | 'latencySeconds' | 'tokens', { readonly count: number; readonly group: string; readonly method: string }>>;
  /** The caps the plan was chosen under (request constraints over config budgets), as EXPLAIN has them: what the quote is judged against. */
  readonly constraints?: Constraints;
}
