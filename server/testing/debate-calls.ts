/**
 * A scripted model for debate tests: it answers the groundedness judge with its verdict, every
 * answering call (a solver's or the judge's answer) with the correct scripted answer, and anything
 * else (the LLM reranker's grading) with no grades; and tells a solver's call from the others.
 */
import { CONTEXT_SYSTEM_PROMPT } from '../runtime/reasoner/context-prompt';
import { JUDGE_ANSWER_PROMPT } from '../runtime/reasoner/mixture-prompts';
import type { LoopbackOpenAIServer } from './loopback-openai-server';
import { isJudgeCall, scriptedAnswer, scriptedJudgement } from './scripted-answer-model';

export const systemPromptOf = (body: Record<string, unknown>): string => ((body.messages as { role: string; content: string }[] | undefined) ?? []).find((message) => message.role === 'system')?.content ?? '';

/** A solver's prompt is the context prompt with its own angle appended (the judge's answering call has a prompt of its own). */
export const isSolverCall = (body: Record<string, unknown>): boolean => {
  const system = systemPromptOf(body);
  return !isJudgeCall(body) && system !== CONTEXT_SYSTEM_PROMPT && system !== JUDGE_ANSWER_PROMPT && system.startsWith(CONTEXT_SYSTEM_PROMPT);
};

export function scriptDebateModel(server: LoopbackOpenAIServer): void {
  server.script((body) => {
    if (isJudgeCall(body)) return { text: scriptedJudgement(body) };
    const system = systemPromptOf(body);
    if (system === JUDGE_ANSWER_PROMPT || system.startsWith(CONTEXT_SYSTEM_PROMPT)) return { text: scriptedAnswer('correct', body, 0) };
    // The LLM reranker's grading: no parseable grades, so it keeps the first stage's order.
    return { text: 'no grades' };
  });
}
