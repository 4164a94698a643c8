import { generateText, jsonSchema, type LanguageModel, type ModelMessage as SdkMessage, stepCountIs, tool, type ToolSet } from 'ai';
import type { ModelCapabilities, ModelStep, ModelToolLoop, StepAdmission, ToolLoopEnd } from '../../runtime/contracts/model';
import { MESSAGE_OVERHEAD_TOKENS } from '../../runtime/contracts/router';
import { callFailure } from './call-failure';

/**
 * A tool loop through the AI SDK's own tool calling: generateText with the runtime's tools and
 * `stopWhen: stepCountIs(maxSteps)`. Each step is one provider call, so each is admitted by the
 * run's budget before it starts (prepareStep) and booked when it ends (onStepFinish):
 *
 * - a step is priced with the answering step after it (its prompt grown by this step's output and
 *   at most `resultTokensPerStep` of tool results); when the budget cannot hold both, this step
 *   runs as the last one, asked to answer without tools, so a budget ends the loop with an answer;
 * - when the budget refuses even that, the loop ends with what it has (the steps so far); a refusal
 *   of the very first step is the call's refusal, as for any call;
 * - the step at the cap is asked to answer without tools too.
 */
export interface ToolLoopCall {
  readonly model: LanguageModel;
  readonly system?: string;
  readonly messages: readonly { readonly role: 'user' | 'assistant'; readonly content: string }[];
  readonly maxOutputTokens: number;
  readonly signal: AbortSignal;
  readonly loop: ModelToolLoop;
  readonly admitStep?: StepAdmission;
  readonly countTokens: (text: string) => number;
  readonly prices: Pick<ModelCapabilities, 'inputUsdPerMillion' | 'outputUsdPerMillion'>;
  readonly telemetry?: Record<string, unknown>;
}

export interface ToolLoopOutcome {
  readonly text: string;
  readonly usage: { readonly inputTokens: number; readonly outputTokens: number };
  /** The loop's calls (not `steps`: the AI SDK's results name theirs so). */
  readonly modelSteps: readonly ModelStep[];
  readonly loopEnd: ToolLoopEnd;
}

/** The refusal that ended a loop after some steps ran: the caller returns what the loop has. */
class StepRefused extends Error {
  constructor(readonly refusal: unknown) {
    super(refusal instanceof Error ? refusal.message : String(refusal));
  }
}

export async function runToolLoop(call: ToolLoopCall): Promise<ToolLoopOutcome> {
  const { loop, maxOutputTokens } = call;
  const steps: ModelStep[] = [];
  const texts: string[] = [];
  let open: { readonly ended?: (ended: Parameters<ReturnType<StepAdmission>>[0]) => void; readonly started: number; readonly last: boolean; readonly byBudget: boolean } | undefined;
  const costOf = (input: number, output: number) => (input * call.prices.inputUsdPerMillion + output * call.prices.outputUsdPerMillion) / 1_000_000;
  const tools: ToolSet = Object.fromEntries(
    loop.tools.map((runtimeTool) => [
      runtimeTool.name,
      tool({
        description: runtimeTool.description,
        inputSchema: jsonSchema(runtimeTool.inputSchema as Parameters<typeof jsonSchema>[0]),
        execute: (input: unknown, options: { abortSignal?: AbortSignal }) => runtimeTool.execute(input, { step: steps.length, ...(options.abortSignal ? { signal: options.abortSignal } : {}) }),
      }),
    ]),
  );
  const promptTokensOf = (messages: readonly SdkMessage[]) => call.countTokens(`${call.system ?? ''}\n${JSON.stringify(messages)}`) + (messages.length + 1) * MESSAGE_OVERHEAD_TOKENS;
  let end: ToolLoopEnd | undefined;
  try {
    const result = await generateText({
      model: call.model,
      ...(call.system ? { system: call.system } : {}),
      messages: call.messages.map((message) => ({ ...message })),
      maxOutputTokens,
      temperature: 0,
      maxRetries: 0,
      abortSignal: call.signal,
      tools,
      stopWhen: stepCountIs(loop.maxSteps),
      ...(call.telemetry ?? {}),
      prepareStep: ({ stepNumber, messages }) => {
        const promptTokens = promptTokensOf(messages);
        const atCap = stepNumber >= loop.maxSteps - 1;
        let ended: ReturnType<StepAdmission> | undefined;
        let byBudget = false;
        if (call.admitStep && !atCap) {
          try {
            ended = call.admitStep({ promptTokens: 2 * promptTokens + maxOutputTokens + loop.resultTokensPerStep, maxOutputTokens: 2 * maxOutputTokens });
          } catch {
            byBudget = true;
          }
        }
        if (call.admitStep && !ended) {
          try {
            ended = call.admitStep({ promptTokens, maxOutputTokens });
          } catch (refusal) {
            throw new StepRefused(refusal);
          }
        }
        const last = atCap || byBudget;
        open = { ...(ended ? { ended } : {}), started: performance.now(), last, byBudget };
        // The answering step: no tools offered, so the model must answer with what it has.
        return last ? { toolChoice: 'none' as const, activeTools: [] } : {};
      },
      onStepFinish: (step) => {
        const inputTokens = step.usage.inputTokens ?? 0;
        const outputTokens = step.usage.outputTokens ?? call.countTokens(step.text);
        const costUsd = costOf(inputTokens, outputTokens);
        open?.ended?.({ usage: { inputTokens, outputTokens }, costUsd });
        const toolCalls = step.toolCalls.map((toolCall) => ({ tool: toolCall.toolName, input: toolCall.input }));
        steps.push({ step: steps.length, usage: { inputTokens, outputTokens }, costUsd, latencyMs: Math.round(performance.now() - (open?.started ?? performance.now())), toolCalls, finish: toolCalls.length > 0 ? 'tool_calls' : 'answer', ...(open?.byBudget ? { lastByBudget: true } : {}) });
        texts.push(step.text);
        if (toolCalls.length === 0) end = open?.byBudget ? { by: 'budget', refusal: 'the budget held no step after this one' } : open?.last ? { by: 'step_cap' } : { by: 'answer' };
        open = undefined;
      },
    });
    texts.push(result.text);
  } catch (error) {
    open?.ended?.({ failed: callFailure(error, call.signal) });
    if (!(error instanceof StepRefused)) throw error;
    if (steps.length === 0) throw error.refusal;
    end = { by: 'budget', refusal: error.message };
  }
  const usage = steps.reduce((sum, step) => ({ inputTokens: sum.inputTokens + step.usage.inputTokens, outputTokens: sum.outputTokens + step.usage.outputTokens }), { inputTokens: 0, outputTokens: 0 });
  // The answer is the last thing the model said: the answering step's text, or what it said beside its last tool calls.
  const text = [...texts].reverse().find((entry) => entry.trim().length > 0) ?? '';
  return { text, usage, modelSteps: steps, loopEnd: end ?? { by: 'step_cap' } };
}
