import type { TokenUsage } from '../types';
import type { CallEnded } from './router';

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
  /** Speaks the provider's tool calling (config `tools: true` on the tier): only such a tier runs a tool_loop. Absent = no. */
  readonly toolCalls?: boolean;
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
  /**
   * The model may call these runtime tools, step after step (the AI SDK's tool calling), until it
   * answers or the loop's step cap; only a tier with `toolCalls` is given them. Absent: one call.
   */
  readonly toolLoop?: ModelToolLoop;
}

/** A runtime tool a model may call: plain data and a function, so the runtime names no SDK. */
export interface ModelTool {
  readonly name: string;
  readonly description: string;
  /** JSON Schema of the call's input object. */
  readonly inputSchema: Readonly<Record<string, unknown>>;
  /** Runs one call; what it returns goes back to the model as the tool's result. Throws only for a bug: a refusal is a result. */
  execute(input: unknown, call: { readonly step: number; readonly signal?: AbortSignal }): Promise<unknown>;
}

export interface ModelToolLoop {
  readonly tools: readonly ModelTool[];
  /** Most model calls in the loop; the last one is asked to answer without tools. */
  readonly maxSteps: number;
  /** The most tokens one step's tool results can add to the next step's prompt (a budget prices the next step with it). */
  readonly resultTokensPerStep: number;
}

/** One model call of a tool loop, as it ended. */
export interface ModelStep {
  readonly step: number;
  readonly usage: TokenUsage;
  readonly costUsd: number;
  readonly latencyMs: number;
  readonly toolCalls: readonly { readonly tool: string; readonly input: unknown }[];
  /** `answer`: the model answered; `tool_calls`: it asked for tools. */
  readonly finish: 'answer' | 'tool_calls';
  /** The budget let this step run only as the answering one (no tools): a step after it would have crossed a limit. */
  readonly lastByBudget?: boolean;
}

/** How a tool loop ended: the model answered, the step cap stopped it, or the run's budget refused its next step. */
export type ToolLoopEnd = { readonly by: 'answer' | 'step_cap' } | { readonly by: 'budget'; readonly refusal: string };

/**
 * Asked before each step of a tool loop (the router binds the run budget's CallAdmission to the
 * tier): throws to refuse the step, else returns what to tell once the step ended.
 */
export type StepAdmission = (step: { readonly promptTokens: number; readonly maxOutputTokens: number }) => (ended: CallEnded) => void;

export interface ModelResult {
  readonly text: string;
  readonly usage: TokenUsage;
  readonly costUsd: number;
  readonly latencyMs: number;
  readonly modelId: string;
  readonly tier: string;
  /** A tool loop's calls, one per step (usage and cost above are their sums); absent for one call. */
  readonly steps?: readonly ModelStep[];
  readonly loopEnd?: ToolLoopEnd;
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
  /** `admitStep`: with a tool loop, asked before each of its steps (the router passes the run budget's admission). */
  complete(request: ModelRequest, options?: { readonly admitStep?: StepAdmission }): Promise<ModelResult>;
}
