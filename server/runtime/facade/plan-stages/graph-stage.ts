/**
 * Stage `graph`: the chosen candidate as an Execution Graph over the sources in its scope (the
 * allowed sources of the kinds it reads), within the token budget and the scheduler's retry and
 * timeout settings. Sources of other kinds are reported as not selected, with the plan's scope.
 */
import { asksConfiguredValue } from '../../planner/setting-question';
import { describedSettingWords } from '../../text/setting-behaviours';
import type { PlanningContext } from '../../contracts/candidate-generator';
import type { PolicyDecision } from '../../contracts/policy';
import type { RuntimeConfig } from '../../config/config-schema';
import { buildExecutionGraph } from '../../execution/graph-builder';
import { callTierNames } from '../../costmodel/call-tiers';
import { planVerificationRetries } from '../../planner/verification-retries';
import { kindsToCover } from '../../planner/named-source-kinds';
import type { ExecutionGraph } from '../../ir/graph';
import { anchorsOnEvidence, searchWindows } from '../../text/event-anchor';
import type { Constraints, Intent, RejectedSource, ScoredCandidate, SourceInfo } from '../../types';
import type { RuntimePlugins } from '../runtime-plugins';

/** Source kinds whose chunks carry their first and last timestamp (the log, events and metrics parsers). */
const STAMPED_KINDS: ReadonlySet<string> = new Set(['logs', 'events', 'metrics']);

/** Output tokens a single answer may use; the cost model reads the same number via the tier caps. */
const MAX_ANSWER_TOKENS = 600;

export interface GraphInput {
  readonly chosen: ScoredCandidate;
  readonly allowed: readonly SourceInfo[];
  readonly policy: PolicyDecision;
  readonly context: PlanningContext;
  /** Merged budgets and request constraints. */
  readonly constraints: Constraints;
  readonly requireCitations: boolean;
  readonly intent: Intent;
  /** Verification is required (request or policy): a failed verdict retries, then ends the run unverified. */
  readonly requireVerification: boolean;
  /** The request asks for an answer matching an output_schema. */
  readonly outputSchema: boolean;
}

export interface GraphOutcome {
  readonly graph: ExecutionGraph;
  /** The allowed sources inside the plan's scope. */
  readonly scopedSources: readonly SourceInfo[];
  /** Allowed sources the plan's scope left out. */
  readonly outOfScope: readonly RejectedSource[];
  readonly tokenBudget: number;
  readonly meanChunkTokens: number;
}

/** Share of a `max_tokens` cap left for the answer (at most MAX_ANSWER_TOKENS, at least MIN_ANSWER_TOKENS). */
const ANSWER_SHARE_OF_CAP = 0.25;
const MIN_ANSWER_TOKENS = 64;
/** Of what is left after the answer, the share evidence may fill: the prompt's instructions, goal and passage headers take the rest. */
const EVIDENCE_SHARE_OF_PROMPT = 0.6;

/**
 * Splits a `max_tokens` cap between the context and the answer. The run budget refuses a model call
 * whose prompt plus its whole output allowance would cross the cap, so a context as large as the
 * cap itself could never be answered.
 */
export function tokenAllowance(contextTokenBudget: number, maxTokens: number | undefined): { readonly tokenBudget: number; readonly maxOutputTokens: number } {
  if (maxTokens === undefined) return { tokenBudget: contextTokenBudget, maxOutputTokens: MAX_ANSWER_TOKENS };
  const maxOutputTokens = Math.min(MAX_ANSWER_TOKENS, Math.max(MIN_ANSWER_TOKENS, Math.floor(maxTokens * ANSWER_SHARE_OF_CAP)));
  const tokenBudget = Math.min(contextTokenBudget, Math.max(0, Math.floor((maxTokens - maxOutputTokens) * EVIDENCE_SHARE_OF_PROMPT)));
  return { tokenBudget, maxOutputTokens };
}

/** The capabilities of each call's tier, in call order (call-tiers.ts); a tier the context lacks is skipped. */
function callTiersOf(candidate: ScoredCandidate['candidate'], calls: number, context: PlanningContext) {
  return callTierNames(candidate, calls).flatMap((name) => context.tiers.find((tier) => tier.name === name)?.capabilities ?? []);
}

export function graphStage(plugins: RuntimePlugins, config: RuntimeConfig, input: GraphInput): GraphOutcome {
  const { chosen, allowed, policy } = input;
  const chunkCount = allowed.reduce((sum, source) => sum + source.chunkCount, 0);
  const meanChunkTokens = chunkCount === 0 ? 0 : allowed.reduce((sum, source) => sum + source.tokenCount, 0) / chunkCount;
  const kinds = chosen.candidate.sourceKinds;
  const scopedSources = kinds === 'all' ? allowed : allowed.filter((source) => (kinds as readonly string[]).includes(source.kind));
  const outOfScope: RejectedSource[] = allowed
    .filter((source) => !scopedSources.includes(source))
    .map((source) => ({ source: source.name, reason: 'not_selected', detail: `kind ${source.kind} is outside the plan's scope (${(kinds as readonly string[]).join(', ')})` }));
  const { tokenBudget, maxOutputTokens } = tokenAllowance(config.retrieval.context_token_budget, input.constraints.max_tokens);
  const reasonTokens = Math.max(0, chosen.estimates.tokens.value);
  const reasoner = plugins.reasoners.find((plugin) => plugin.strategy === chosen.candidate.reasoning);
  const retryPlan = planVerificationRetries({
    candidate: chosen.candidate,
    planCostUsd: chosen.estimates.costUsd.value,
    planModelTokens: reasonTokens,
    tiers: input.context.tiers,
    retrievers: input.context.retrievers,
    // A retry attempt is one answering node: a reasoner whose calls are several nodes cannot be one;
    // a retry may move to a tier without tool calls, so a tool loop's retries answer in one call.
    singleCallStrategies: plugins.reasoners.filter((reasoner) => !reasoner.bridgeHops && !reasoner.mixture && !reasoner.requiresToolCalls).map((reasoner) => reasoner.strategy),
    localOnly: policy.localOnly,
    constraints: input.constraints,
    maxAttempts: config.verification.max_attempts,
    judge: config.verification.judge,
    meanChunkTokens,
    reasonEstimate: { tokens: reasonTokens, costUsd: chosen.estimates.costUsd.value, latencySeconds: chosen.estimates.latencySeconds.value },
    maxOutputTokens,
  });
  const graph = buildExecutionGraph({
    candidate: chosen.candidate,
    estimates: chosen.estimates,
    sources: scopedSources.map((source) => source.name),
    scopedKinds: [...new Set(scopedSources.map((source) => source.kind))],
    retrievers: input.context.retrievers,
    tokenBudget,
    finalK: config.retrieval.final_k,
    meanChunkTokens,
    localOnly: policy.localOnly,
    requireCitations: input.requireCitations,
    approvalReason: policy.reasons.find((reason) => reason.includes('human')) ?? 'plan requires a human approval',
    maxOutputTokens,
    retry: { maxAttempts: config.scheduler.max_attempts, backoffMs: config.scheduler.backoff_ms },
    nodeTimeoutMs: config.scheduler.node_timeout_ms,
    intentClasses: input.intent.classes,
    observationSources: scopedSources.filter((source) => source.kind === 'logs' || source.kind === 'events').map((source) => source.name),
    coverKinds: kindsToCover(input.intent.goal),
    timeWindows: { windows: searchWindows(input.intent.goal), anchored: anchorsOnEvidence(input.intent.goal), sources: scopedSources.filter((source) => STAMPED_KINDS.has(source.kind)).map((source) => source.name) },
    ...(asksConfiguredValue(input.intent.goal) ? { settingLookup: { sources: scopedSources.filter((source) => source.kind === 'git').map((source) => source.name), terms: describedSettingWords(input.intent.goal) } } : {}),
    bridgeHops: reasoner?.bridgeHops ?? 0,
    ...(reasoner?.mixture ? { mixture: { ...reasoner.mixture, modelCalls: reasoner.expectedModelCalls } } : {}),
    ...(chosen.candidate.solverTiers && reasoner ? { callTiers: callTiersOf(chosen.candidate, reasoner.expectedModelCalls, input.context) } : {}),
    gate: { outputSchema: input.outputSchema, required: input.requireVerification, ...retryPlan },
  });
  return { graph, scopedSources, outOfScope, tokenBudget, meanChunkTokens };
}
