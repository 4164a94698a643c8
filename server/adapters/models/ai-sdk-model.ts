import { APICallError } from '@ai-sdk/provider';
import { context, type Context, type Tracer } from '@opentelemetry/api';
import { generateText, jsonSchema, NoObjectGeneratedError, Output } from 'ai';
import type { TierConfig } from '../../runtime/config/config-schema';
import { MODEL_CONTRACT, type ModelCapabilities, type ModelPlugin, type ModelRequest, type ModelResult, type StepAdmission } from '../../runtime/contracts/model';
import { ContextRuntimeError, invalidInput, isContextRuntimeError } from '../../runtime/errors';
import { runToolLoop, type ToolLoopOutcome } from './ai-sdk-tool-loop';
import { resolveLanguageModel, type Environment } from './language-model-factory';
import { PROVIDER_DEFAULTS, isLoopbackUrl } from './model-defaults';
import { admitAcrossProcesses, type TierAdmissionLedger } from './cluster-admission';
import { sharedTierLimiter, type Admission, type TierLimits } from './tier-limiter';
import { countMessageTokens, createTokenCounter } from './token-counter';

/** A call's slot in the cross-process ledger outlives its deadline by this much, then frees itself (its process died mid-call). */
const LEASE_MARGIN_MS = 30_000;

/** A ModelPlugin that also says whether its tier can be reached (read by the tiered router). */
export interface TierModelPlugin extends ModelPlugin {
  readonly available: boolean;
  readonly unavailableReason?: string;
}

export function tierCapabilities(tier: TierConfig, modelId: string): ModelCapabilities {
  const defaults = PROVIDER_DEFAULTS[tier.provider];
  const local = tier.local ?? (tier.provider === 'extractive' || (tier.provider === 'openai-compatible' && isLoopbackUrl(tier.base_url)));
  return Object.freeze({
    provider: tier.provider,
    modelId,
    contextWindow: tier.context_window ?? defaults.contextWindow,
    inputUsdPerMillion: tier.input_usd_per_million ?? defaults.inputUsdPerMillion,
    outputUsdPerMillion: tier.output_usd_per_million ?? defaults.outputUsdPerMillion,
    local,
    firstTokenSeconds: defaults.firstTokenSeconds,
    secondsPerOutputToken: defaults.secondsPerOutputToken,
    qualityPrior: tier.quality_prior ?? defaults.qualityPrior,
    maxOutputTokens: tier.max_output_tokens ?? defaults.maxOutputTokens,
    ...(tier.tools ? { toolCalls: true } : {}),
  });
}

/** What a caller's abort (node timeout, cancelled run) throws: its own typed reason when it gave one. */
function abortedByCaller(signal: AbortSignal, describe: string, cause: unknown): ContextRuntimeError {
  if (isContextRuntimeError(signal.reason)) return signal.reason;
  return new ContextRuntimeError('TIMEOUT', `${describe}: the call was aborted by its caller`, { cause });
}

/**
 * The Model plugin of one configured tier: every call goes through the AI SDK's generateText,
 * the built-in extractive reader included. Errors leave as ContextRuntimeError: TIMEOUT when the
 * deadline fired, MODEL_UNAVAILABLE for anything the provider (or its transport) raised, and the
 * caller's own reason when its signal aborted. Calls wait for the tier's shared limiter
 * (max_concurrency, rpm, tpm); the wait counts against the deadline.
 */
/**
 * AI SDK telemetry (its own `ai.generateText` spans with GenAI attributes) when observability is
 * configured. A local tier is where sensitive passages may go, so its prompts and answers are not
 * recorded; a non-local tier only ever sees what the sensitive-content guard let through.
 */
export interface ModelTelemetry {
  readonly tracer: Tracer;
  /** The context the call's spans start under: the run's node it executes in (otel-span-emitter.ts), so they join the run's trace. */
  contextForCall?(): Context;
}

/**
 * `admissions`: the ledger of every process sharing the deployment's database (a PostgreSQL server):
 * a call with limits configured also waits for it, so workers on several machines keep within the
 * tier's limits together. Without it the limits hold per process.
 */
export function createModelPlugin(tier: TierConfig, environment: Environment, telemetry?: ModelTelemetry, admissions?: TierAdmissionLedger): TierModelPlugin {
  const resolved = resolveLanguageModel(tier, environment);
  const capabilities = tierCapabilities(tier, resolved.modelId);
  const countTokens = createTokenCounter();
  const describe = `tier ${tier.name} (${tier.provider}/${resolved.modelId})`;
  const limiterKey = `${tier.provider}|${tier.base_url ?? ''}|${resolved.modelId}|${tier.api_key_env ?? ''}`;
  const limits: TierLimits = { maxConcurrency: tier.max_concurrency, requestsPerMinute: tier.rpm, tokensPerMinute: tier.tpm };
  const limiter = sharedTierLimiter(limiterKey, limits);

  async function complete(request: ModelRequest, options: { readonly admitStep?: StepAdmission } = {}): Promise<ModelResult> {
    if (!resolved.available) {
      throw new ContextRuntimeError('MODEL_UNAVAILABLE', `${describe}: ${resolved.unavailableReason}`, {
        details: { tier: tier.name, reason: resolved.unavailableReason },
      });
    }
    if (!(request.timeoutMs > 0)) throw invalidInput('timeoutMs', 'must be a positive number of milliseconds');
    const timeoutMs = Math.min(request.timeoutMs, tier.timeout_ms ?? Number.POSITIVE_INFINITY);
    const system = request.messages.filter((message) => message.role === 'system').map((message) => message.content).join('\n\n');
    const conversation = request.messages
      .filter((message) => message.role !== 'system')
      .map((message) => ({ role: message.role as 'user' | 'assistant', content: message.content }));
    const deadline = AbortSignal.timeout(timeoutMs);
    const signal = request.signal ? AbortSignal.any([deadline, request.signal]) : deadline;
    const maxOutputTokens = Math.min(request.maxOutputTokens, capabilities.maxOutputTokens);
    let admission: Admission | undefined;
    let clusterAdmission: Admission | undefined;
    let spentTokens: number | undefined;
    let started = performance.now();
    let result: { readonly text: string; readonly usage: { readonly inputTokens?: number; readonly outputTokens?: number; readonly inputTokenDetails?: { readonly cacheReadTokens?: number }; readonly cachedInputTokens?: number } } & Partial<Pick<ToolLoopOutcome, 'modelSteps' | 'loopEnd'>>;
    // A tool loop runs only on a tier configured for tool calls; any other answers in one call, without tools.
    const toolLoop = capabilities.toolCalls ? request.toolLoop : undefined;
    const telemetryOptions = telemetry
      ? { experimental_telemetry: { isEnabled: true, tracer: telemetry.tracer, functionId: `context-runtime.${tier.name}`, recordInputs: !capabilities.local, recordOutputs: !capabilities.local } }
      : {};
    try {
      // Providers count the allowed output against the minute's tokens until the usage is known.
      const admittedTokens = countMessageTokens(request.messages) + maxOutputTokens;
      admission = await limiter?.acquire(admittedTokens, signal);
      // A slot freed in another process is not seen by this one's limiter: the ledger decides across them.
      if (limiter && admissions) clusterAdmission = await admitAcrossProcesses(admissions, { key: limiterKey, limits, tokens: admittedTokens, leaseMs: timeoutMs + LEASE_MARGIN_MS }, signal);
      started = performance.now();
      const loopCall = toolLoop && (() => runToolLoop({ model: resolved.model, ...(system.length > 0 ? { system } : {}), messages: conversation, maxOutputTokens, signal, loop: toolLoop, ...(options.admitStep ? { admitStep: options.admitStep } : {}), countTokens, prices: capabilities, telemetry: telemetryOptions }));
      const call = loopCall || (() => generateText({
        model: resolved.model,
        system: system.length > 0 ? system : undefined,
        messages: conversation,
        maxOutputTokens,
        temperature: 0,
        // The router is the retry policy (fall back up the tiers); SDK retries would only triple the wait on a dead tier.
        maxRetries: 0,
        abortSignal: signal,
        // Structured output for an answer that must match the request's output_schema. The extractive
        // reader has no JSON mode: it gets the schema in its prompt only, and the schema check decides.
        ...(request.outputSchema && tier.provider !== 'extractive' ? { output: Output.object({ schema: jsonSchema(request.outputSchema as Parameters<typeof jsonSchema>[0]) }) } : {}),
        ...telemetryOptions,
      }));
      try {
        result = telemetry?.contextForCall ? await context.with(telemetry.contextForCall(), call) : await call();
      } catch (error) {
        // A reply that is not the asked-for object is still the model's answer: the schema check fails it with the reason, and the run retries.
        if (!NoObjectGeneratedError.isInstance(error) || error.text === undefined) throw error;
        result = { text: error.text, usage: error.usage ?? {} };
      }
      spentTokens = (result.usage.inputTokens ?? 0) + (result.usage.outputTokens ?? 0) || undefined;
    } catch (error) {
      // The caller gave up first (its node timed out, its run was cancelled): its reason, not a tier failure.
      if (request.signal?.aborted) throw abortedByCaller(request.signal, describe, error);
      // A tool loop's first step refused by the run's budget: the caller's limit, no tier failure.
      if (isContextRuntimeError(error) && error.isUserError) throw error;
      if (deadline.aborted) {
        throw new ContextRuntimeError('TIMEOUT', `${describe} did not answer within ${timeoutMs} ms`, {
          details: { tier: tier.name, modelId: resolved.modelId, timeoutMs },
          cause: error,
        });
      }
      const statusCode = APICallError.isInstance(error) ? error.statusCode : undefined;
      const message = error instanceof Error ? error.message : String(error);
      throw new ContextRuntimeError('MODEL_UNAVAILABLE', `${describe} failed: ${statusCode ? `HTTP ${statusCode}: ` : ''}${message}`, {
        details: { tier: tier.name, modelId: resolved.modelId, statusCode },
        cause: error,
      });
    } finally {
      // Reached only once generateText has settled: the aborted request's connection is closed.
      clusterAdmission?.settle(spentTokens);
      admission?.settle(spentTokens);
    }
    const latencyMs = Math.round(performance.now() - started);
    // Provider-reported usage is what the invoice says; the local count is only a fallback for servers that omit it.
    const inputTokens = result.usage.inputTokens ?? countMessageTokens(request.messages);
    const outputTokens = result.usage.outputTokens ?? countTokens(result.text);
    const costUsd = (inputTokens * capabilities.inputUsdPerMillion + outputTokens * capabilities.outputUsdPerMillion) / 1_000_000;
    const loop = result.modelSteps ? { steps: Object.freeze(result.modelSteps), ...(result.loopEnd ? { loopEnd: result.loopEnd } : {}) } : {};
    // The provider's own prompt cache (OpenAI's prompt_tokens_details.cached_tokens, Anthropic's
    // cache reads), as the AI SDK reports it; older SDK usage objects carried only cachedInputTokens.
    const cachedInputTokens = result.usage.inputTokenDetails?.cacheReadTokens ?? result.usage.cachedInputTokens;
    return Object.freeze({
      text: result.text,
      usage: Object.freeze({ inputTokens, outputTokens, ...(cachedInputTokens !== undefined ? { cachedInputTokens } : {}) }),
      costUsd,
      latencyMs,
      modelId: resolved.modelId,
      tier: tier.name,
      ...loop,
    });
  }

  return Object.freeze({
    contract: MODEL_CONTRACT,
    tier: tier.name,
    available: resolved.available,
    unavailableReason: resolved.available ? undefined : resolved.unavailableReason,
    capabilities: () => capabilities,
    countTokens,
    complete,
  });
}
