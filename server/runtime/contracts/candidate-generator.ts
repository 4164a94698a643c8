import type { CandidatePlan, Intent, RejectedCandidate, SourceInfo } from '../types';
import type { ModelCacheTally } from './model-cache';
import type { RetrieverCapabilities } from './retriever';
import type { TierInfo } from './router';
import type { PolicyDecision } from './policy';
import type { MixtureShape } from './reasoner';

/** Contract version of the CandidateGenerator planner stage. */
export const CANDIDATE_GENERATOR_CONTRACT = 'candidate-generator/v1' as const;

/** Everything the planner may know about the world, all of it reported by plugins. */
export interface PlanningContext {
  readonly retrievers: readonly RetrieverCapabilities[];
  readonly tiers: readonly TierInfo[];
  readonly sources: readonly SourceInfo[];
  readonly policy: PolicyDecision;
  /**
   * `requiresToolCalls`: offered only on a tier whose model calls tools (tool_loop). `needsInstructions`:
   * the strategy splits, critiques or judges, so only a tier that follows instructions can run it (not the extractive reader).
   */
  readonly reasoners: readonly { readonly strategy: string; readonly expectedModelCalls: number; readonly requiresToolCalls?: boolean; readonly needsInstructions?: boolean; /** A mixture's fan-out: a debate's solvers may each be routed to their own tier. */ readonly mixture?: MixtureShape }[];
  readonly compressions: readonly { readonly method: string; readonly expectedRatio: number; readonly expectedLoss: number }[];
  readonly verifiers: readonly { readonly method: string; readonly confidencePrior: number }[];
  /** Measured lookups and hits of the model-context cache per (model, intent class); absent = none measured (the prior holds). */
  readonly modelCacheTallies?: readonly ModelCacheTally[];
  /** Quality gain over one shot per reasoner and intent class, measured (config costmodel.reasoner_gains); absent pairs keep the constant. */
  readonly reasonerGains?: Readonly<Record<string, Readonly<Partial<Record<string, number>>>>>;
  /** Retrieval defaults from config. */
  readonly retrieval: { readonly topK: number; readonly finalK: number; /** Tokens the assembled context may hold. */ readonly contextTokenBudget?: number };
}

export interface CandidateSet {
  readonly candidates: readonly CandidatePlan[];
  /** Every cut with the rule that made it. */
  readonly rejected: readonly RejectedCandidate[];
  /** How many combinations were enumerated before pruning. */
  readonly enumerated: number;
}

/** "What plans are possible?" — enumerates and rule-prunes. */
export interface CandidateGeneratorPlugin {
  readonly contract: typeof CANDIDATE_GENERATOR_CONTRACT;
  generate(intent: Intent, context: PlanningContext): CandidateSet;
}
