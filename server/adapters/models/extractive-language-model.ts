import type {
  LanguageModelV3,
  LanguageModelV3CallOptions,
  LanguageModelV3GenerateResult,
  LanguageModelV3Prompt,
  LanguageModelV3StreamPart,
  LanguageModelV3StreamResult,
  LanguageModelV3Usage,
  SharedV3Warning,
} from '@ai-sdk/provider';
import { parseContextPrompt } from '../../runtime/reasoner/context-prompt';
import { selectEvidence } from './extractive-reader';
import { composeAnswer } from './extractive-answer-text';
import { countMessageTokens, countTokens } from './token-counter';

export const EXTRACTIVE_PROVIDER = 'context-runtime';
export const EXTRACTIVE_MODEL_ID = 'extractive-v1';

/** Words per streamed delta: small enough to look like streaming, large enough to keep the part count low. */
const WORDS_PER_CHUNK = 4;

const textOf = (content: LanguageModelV3Prompt[number]['content']): string =>
  typeof content === 'string' ? content : content.map((part) => (part.type === 'text' ? part.text : '')).join('');

interface Reading {
  readonly text: string;
  readonly usage: LanguageModelV3Usage;
  readonly finishReason: LanguageModelV3GenerateResult['finishReason'];
  readonly warnings: SharedV3Warning[];
}

function usageOf(inputTokens: number, outputTokens: number): LanguageModelV3Usage {
  return {
    inputTokens: { total: inputTokens, noCache: inputTokens, cacheRead: undefined, cacheWrite: undefined },
    outputTokens: { total: outputTokens, text: outputTokens, reasoning: undefined },
  };
}

/** Cuts `text` to at most `maxTokens` tokens at a line or word boundary. */
function truncateToTokens(text: string, maxTokens: number): string {
  const lines = text.split('\n');
  while (lines.length > 1 && countTokens(lines.join('\n')) > maxTokens) lines.pop();
  let kept = lines.join('\n');
  while (kept.length > 0 && countTokens(kept) > maxTokens) kept = kept.slice(0, kept.lastIndexOf(' ') > 0 ? kept.lastIndexOf(' ') : kept.length - 1);
  return kept;
}

function read(options: LanguageModelV3CallOptions): Reading {
  options.abortSignal?.throwIfAborted();
  const warnings: SharedV3Warning[] = [];
  if (options.tools && options.tools.length > 0) warnings.push({ type: 'unsupported', feature: 'tools', details: 'the extractive reader only answers from context' });
  if (options.responseFormat?.type === 'json') warnings.push({ type: 'unsupported', feature: 'responseFormat', details: 'the extractive reader writes text' });
  const messages = options.prompt.map((message) => ({ role: message.role, content: textOf(message.content) }));
  const lastUser = [...messages].reverse().find((message) => message.role === 'user')?.content ?? '';
  const parsed = parseContextPrompt(lastUser) ?? { question: lastUser.trim(), blocks: [] };
  let text = composeAnswer(parsed.question, selectEvidence(parsed));
  let finishReason: Reading['finishReason'] = { unified: 'stop', raw: 'stop' };
  if (options.maxOutputTokens !== undefined && countTokens(text) > options.maxOutputTokens) {
    text = truncateToTokens(text, options.maxOutputTokens);
    finishReason = { unified: 'length', raw: 'length' };
  }
  return { text, usage: usageOf(countMessageTokens(messages), countTokens(text)), finishReason, warnings };
}

/**
 * The built-in offline model, implementing the AI SDK LanguageModelV3 spec so it goes through
 * generateText/streamText like any provider model. Deterministic: the same prompt gives the same
 * answer and usage; nothing leaves the process.
 */
export function createExtractiveLanguageModel(): LanguageModelV3 {
  return {
    specificationVersion: 'v3',
    provider: EXTRACTIVE_PROVIDER,
    modelId: EXTRACTIVE_MODEL_ID,
    supportedUrls: {},
    async doGenerate(options): Promise<LanguageModelV3GenerateResult> {
      const reading = read(options);
      return {
        content: [{ type: 'text', text: reading.text }],
        finishReason: reading.finishReason,
        usage: reading.usage,
        warnings: reading.warnings,
        response: { modelId: EXTRACTIVE_MODEL_ID },
      };
    },
    async doStream(options): Promise<LanguageModelV3StreamResult> {
      const reading = read(options);
      const chunks = reading.text.match(new RegExp(`(?:\\S+\\s*){1,${WORDS_PER_CHUNK}}|\\s+`, 'g')) ?? [];
      const parts: LanguageModelV3StreamPart[] = [
        { type: 'stream-start', warnings: reading.warnings },
        { type: 'response-metadata', modelId: EXTRACTIVE_MODEL_ID },
        { type: 'text-start', id: 'text-0' },
        ...chunks.map((delta): LanguageModelV3StreamPart => ({ type: 'text-delta', id: 'text-0', delta })),
        { type: 'text-end', id: 'text-0' },
        { type: 'finish', usage: reading.usage, finishReason: reading.finishReason },
      ];
      const stream = new ReadableStream<LanguageModelV3StreamPart>({
        pull(controller) {
          const next = parts.shift();
          if (next === undefined) controller.close();
          else controller.enqueue(next);
        },
      });
      return { stream };
    },
  };
}
