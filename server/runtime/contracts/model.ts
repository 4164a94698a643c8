import type { TokenUsage } from '../types';

/** Contract version of the Model plugin. */
export const MODEL_CONTRACT = 'model/v1' as const;

/** Discovered (or configured) facts about one model; the cost model reads only these. */
export interface ModelCapabilities {
  readonly provider: string;
  readonly modelId: string;
  readonly contextWindow: number;
  /** USD per million input tokens. */
  readonly inputUsdPerMillion: number;
  /** USD per million output tokens. */
  readonly outputUsdPerMillion: number;
  /** Runs on this machine (no data leaves it): the only kind a sensitive goal may use. */
  readonly local: boolean;
  /** Expected seconds to the first token and per output token. */
  readonly firstTokenSeconds: number;
  readonly secondsPerOutputToken: number;
  /** Prior answer quality 0–1 (used by the cost model's accuracy estimate). */
  readonly qualityPrior: number;
  readonly maxOutputTokens: number;
}

export interface ModelMessage {
  readonly role: 'system' | 'user' | 'assistant';
  readonly content: string;
}

export interface ModelRequest {
  readonly messages: readonly ModelMessage[];
  readonly maxOutputTokens: number;
  /** Abort after this many milliseconds; the router then falls back up the tiers. */
  readonly timeoutMs: number;
  /**
   * The caller gave up (its node timed out, its run was cancelled): the call is aborted (the
   * connection closed) and fails with the signal's reason; the router then tries no other tier.
   * Optional so callers without a deadline of their own need no change.
   */
  readonly signal?: AbortSignal;
  /**
   * The reply must be one JSON value matching this JSON Schema: a model that supports it is asked
   * for structured output (the AI SDK's Output.object); the reply's text is the JSON either way, and
   * the runtime's own schema check decides whether it matches.
   */
  readonly outputSchema?: Readonly<Record<string, unknown>>;
}

export interface ModelResult {
  readonly text: string;
  readonly usage: TokenUsage;
  readonly costUsd: number;
  readonly latencyMs: number;
  readonly modelId: string;
  readonly tier: string;
}

/** Transport to ONE model. */
export interface ModelPlugin {
  readonly contract: typeof MODEL_CONTRACT;
  /** Tier name this model serves (from config): e.g. "local", "cheap", "premium". */
  readonly tier: string;
  /** False when the model cannot be reached (no key, no endpoint); the router skips it and the planner prunes the tier. */
  readonly available?: boolean;
  readonly unavailableReason?: string;
  capabilities(): ModelCapabilities;
  countTokens(text: string): number;
  complete(request: ModelRequest): Promise<ModelResult>;
}
