/**
 * The EXPLAIN object: one inspectable answer to "why this plan?" (and with ANALYZE,
 * "how far off were the estimates?"). Plain JSON; the CLI prints it as a tree, the console as tables.
 */
import type { Contradiction } from '../contracts/knowledge';
import type { PlanCacheKey } from '../contracts/plan-cache';
import type { RetrieverCapabilities } from '../contracts/retriever';
import type { TierInfo } from '../contracts/router';
import type { StoreCapabilities } from '../contracts/store';
import type { VerificationResult } from '../contracts/verifier';
import type { RunStatus } from '../contracts/run-store';
import type { ExecutionGraph, NodeEstimate, NodeKind } from '../ir/graph';
import type { CandidateEstimates, CandidatePlan, Citation, ConstraintViolation, Constraints, Estimate, Intent, PlanScore, PlanScoreWeights, RejectedCandidate, RejectedSource } from '../types';

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
}

export interface Misestimate {
  /** actual / estimate (PostgreSQL's rows-misestimate factor); > 1 = under-estimated. */
  readonly factor: number;
  readonly direction: 'under' | 'over' | 'exact';
}

export interface AnalyzedNode {
  readonly nodeId: string;
  readonly kind: NodeKind;
  readonly status: 'done' | 'skipped' | 'pending' | 'failed';
  readonly attempts: number;
  readonly estimate: NodeEstimate;
  readonly actual?: NodeEstimate;
  readonly misestimate?: { readonly tokens: Misestimate; readonly costUsd: Misestimate; readonly latencySeconds: Misestimate };
}

export interface AnalyzeSection {
  readonly runId: string;
  readonly status: RunStatus;
  readonly nodes: readonly AnalyzedNode[];
  readonly totals: { readonly estimate: NodeEstimate; readonly actual: NodeEstimate; readonly misestimate: AnalyzedNode['misestimate'] };
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
  readonly selectedSources: readonly string[];
  readonly rejectedSources: readonly RejectedSource[];
  /** Facts the selected sources disagree on: the answer will carry them as caveats. */
  readonly contradictions: readonly Contradiction[];
  readonly estimates: { readonly costUsd: Estimate; readonly accuracy: Estimate; readonly latencySeconds: Estimate; readonly tokens: Estimate };
  readonly tokenBudget: TokenBudget;
  readonly verificationPlan: VerificationPlan;
  readonly planCache: PlanCacheStatus;
  readonly graph: ExecutionGraph;
  readonly costModel: { readonly version: string; readonly weights: PlanScoreWeights };
  readonly capabilities: { readonly store: StoreCapabilities; readonly retrievers: readonly RetrieverCapabilities[]; readonly tiers: readonly TierInfo[] };
  readonly planningMs: number;
  readonly analyze?: AnalyzeSection;
}

export interface RunResult {
  readonly runId: string;
  readonly status: RunStatus;
  readonly answer?: string;
  readonly citations: readonly Citation[];
  readonly verification?: VerificationResult;
  /** Things the reader should know: failed verification, contradictions, fallbacks, omitted content. */
  readonly caveats: readonly string[];
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
}
