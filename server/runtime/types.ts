/**
 * Shared value types of the runtime: requests, intents, candidates, estimates.
 * Plain data, JSON-serialisable, readonly. Planning objects (candidates) are kept
 * apart from execution objects (IR nodes, see ./ir), as PostgreSQL keeps Path apart from Plan.
 */

/** Hard constraints a caller may set (snake_case, as in the public API and config). */
export interface Constraints {
  readonly max_cost_usd?: number;
  readonly max_latency_seconds?: number;
  readonly max_tokens?: number;
  readonly require_citations?: boolean;
  readonly require_verification?: boolean;
}

/** PlanScore weights (see costmodel/units.ts for what each term means). */
export interface PlanScoreWeights {
  readonly acc: number;
  readonly cost: number;
  readonly lat: number;
  readonly risk: number;
  readonly hall: number;
  readonly loss: number;
  readonly cache: number;
  readonly vrf: number;
}

/** Who is asking: feeds policy and the plan-cache key. */
export interface Principal {
  readonly user: string;
  readonly roles: readonly string[];
  /**
   * When set, the only sources this principal may read, within what its roles allow (an API key
   * scoped to sources: access/source-scope-policy.ts). Absent = no narrowing beyond the roles.
   */
  readonly sourceScope?: readonly string[];
}

export interface RunRequest {
  readonly goal: string;
  /** Named sources to draw from; undefined = every source the principal may read. */
  readonly sources?: readonly string[];
  readonly constraints?: Constraints;
  /** Per-request PlanScore weight overrides. */
  readonly weights?: Partial<PlanScoreWeights>;
  readonly principal?: Principal;
  /**
   * A JSON Schema (zod-compatible: what z.toJSONSchema writes) the answer must match: checked by a
   * verify node, and asked of a model tier as structured output. Absent: a free-text answer.
   */
  readonly output_schema?: Readonly<Record<string, unknown>>;
}

export type IntentClass = 'exact_id' | 'conceptual' | 'incident' | 'multi_hop' | 'high_risk' | 'sensitive';

export type IdentifierKind = 'error_code' | 'request_id' | 'commit_sha' | 'pod_name' | 'deployment' | 'ip' | 'uuid' | 'http_status' | 'other';

export interface Identifier {
  readonly kind: IdentifierKind;
  readonly value: string;
}

export interface Intent {
  readonly goal: string;
  /** Lower-cased, whitespace-folded, punctuation-trimmed goal: the plan-cache intent key. */
  readonly normalized: string;
  readonly primary: IntentClass;
  /** Every class that applies (primary first). */
  readonly classes: readonly IntentClass[];
  readonly entities: readonly string[];
  readonly identifiers: readonly Identifier[];
  readonly keywords: readonly string[];
  /** Which rules fired, for EXPLAIN. */
  readonly signals: readonly string[];
}

/** Kinds of source content the store holds; retrieval rules are phrased over these. */
export type SourceKind = 'docs' | 'logs' | 'events' | 'metrics' | 'git' | 'data';

export interface SourceInfo {
  readonly name: string;
  readonly kind: SourceKind;
  readonly versionId: string;
  /** Content hash of the current version. */
  readonly contentHash: string;
  readonly chunkCount: number;
  readonly stale: boolean;
  readonly staleReason?: string;
  readonly sensitive: boolean;
  /**
   * Current passages found at ingest to hold personal data or secrets, and their kinds (never the
   * text). Optional: a source without a count is treated as holding none.
   */
  readonly sensitiveChunks?: number;
  readonly sensitiveKinds?: readonly string[];
  readonly updatedAt: string;
  /** Approximate tokens across the source's chunks (cost model input). */
  readonly tokenCount: number;
}

export type ReasoningStrategy = 'single_shot' | 'plan_worker_critic' | 'decomposition' | 'debate' | 'tool_loop';
export type CompressionMethod = 'none' | 'clip' | 'dedup_clip' | 'sentence_select';
export type VerificationMethod = 'none' | 'citation' | 'citation_grounded';
export type ExecutionShape = 'sequential' | 'parallel';

/** One planning alternative: a point in retrieval × tier × reasoning × compression × verification × shape. */
export interface CandidatePlan {
  readonly id: string;
  /** Retrieval methods, e.g. ['bm25'] or ['bm25','exact']; more than one = fused. */
  readonly retrieval: readonly string[];
  /** Source kinds searched; 'all' where the rules do not narrow it. */
  readonly sourceKinds: readonly SourceKind[] | 'all';
  readonly topK: number;
  /** The answering call's tier (a debate's judge). */
  readonly modelTier: string;
  readonly reasoning: ReasoningStrategy;
  /**
   * A debate's solver tiers in slot order, when the planner routes its solvers to tiers other than
   * the judge's (a mixed-tier debate). Absent: every call of the plan on `modelTier`.
   */
  readonly solverTiers?: readonly string[];
  readonly compression: CompressionMethod;
  readonly verification: VerificationMethod;
  readonly shape: ExecutionShape;
  /** A human approve gate before the answer is released. */
  readonly approval: boolean;
}

/** A number with its interval (p05–p95 unless stated). */
export interface Estimate {
  readonly value: number;
  readonly low: number;
  readonly high: number;
}

export interface CandidateEstimates {
  readonly accuracy: Estimate;
  readonly costUsd: Estimate;
  readonly latencySeconds: Estimate;
  readonly tokens: Estimate;
  readonly risk: Estimate;
  readonly hallucination: Estimate;
  readonly contextLoss: Estimate;
  readonly cacheHit: Estimate;
  readonly verificationConfidence: Estimate;
}

export type EstimatedField = keyof CandidateEstimates;

export interface ScoreComponents {
  readonly acc: number;
  readonly cost: number;
  readonly lat: number;
  readonly risk: number;
  readonly hall: number;
  readonly loss: number;
  readonly cache: number;
  readonly vrf: number;
}

export interface PlanScore {
  readonly total: number;
  /** Each term normalised to [0,1] before weighting (weighted contribution = weight × component). */
  readonly components: ScoreComponents;
  readonly weights: PlanScoreWeights;
}

export interface ConstraintViolation {
  readonly constraint: string;
  readonly limit: number | boolean | string;
  readonly estimated: number | boolean | string;
  readonly message: string;
}

export interface ScoredCandidate {
  readonly candidate: CandidatePlan;
  readonly estimates: CandidateEstimates;
  readonly score: PlanScore;
  readonly feasible: boolean;
  readonly violations: readonly ConstraintViolation[];
}

/** A candidate (or a whole family of them) cut before scoring, with the rule that cut it. */
export interface RejectedCandidate {
  readonly candidate: CandidatePlan | { readonly description: string };
  readonly stage: 'rule' | 'capability' | 'policy' | 'constraint' | 'dominated';
  readonly rule: string;
  readonly reason: string;
  /** PlanScore total, when the candidate was scored before it was cut (a dominated one): what a stored EXPLAIN keeps the best of. */
  readonly score?: number;
}

export interface RejectedSource {
  readonly source: string;
  readonly reason: 'stale' | 'not_permitted' | 'capability_missing' | 'over_budget' | 'sensitive' | 'not_selected';
  readonly detail: string;
}

/** A retrieved unit of evidence. */
export interface Hit {
  readonly chunkId: string;
  readonly sourceName: string;
  readonly sourceKind: SourceKind;
  readonly sourceVersionId: string;
  readonly title: string;
  readonly text: string;
  readonly score: number;
  readonly rank: number;
  readonly method: string;
  /** Where in the source: "line 42", "commit 1a2b3c4", "row 7". */
  readonly locator?: string;
  readonly tokens: number;
  /**
   * Marked at ingest as holding personal data or secrets: never sent to a non-local model as is
   * (withheld under policy.sensitive_content local_only, redacted under redact). Absent on hits
   * that did not come from the store; those are scanned when they are sent.
   */
  readonly sensitive?: boolean;
  /**
   * Placed by the setting lookup (execution/setting-lookup.ts) in a place the plan added for it: the
   * context's assembly keeps it there rather than give that place to another source or kind.
   */
  readonly lookupPlaced?: boolean;
  /**
   * The placed part is the only one of the items before it naming a name the goal gives ("How many
   * partitions does the eta-requests-audit topic have?"): the budget weighs it as a first item.
   */
  readonly lookupNamesGoalAlone?: boolean;
}

/** An item assembled into the model context, numbered for citation. */
export interface ContextItem {
  readonly ref: number;
  readonly hit: Hit;
  readonly text: string;
  readonly tokens: number;
  readonly compressed: boolean;
}

export interface Citation {
  readonly ref: number;
  readonly chunkId: string;
  readonly sourceName: string;
  readonly locator?: string;
  readonly quote: string;
}

export interface TokenUsage {
  readonly inputTokens: number;
  readonly outputTokens: number;
  /**
   * Of the input tokens, those the provider read from its own prompt cache (the AI SDK's
   * usage.inputTokenDetails.cacheReadTokens); absent when the provider reports none.
   */
  readonly cachedInputTokens?: number;
}
