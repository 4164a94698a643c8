/**
 * The model both incident-review pipelines call: an OpenAI Chat Completions server on 127.0.0.1
 * whose answer is read from the prompt it is sent, by the runtime's offline extractive reader. A
 * fixed reply ("… [1] [2]") would make "same cited evidence" a statement about ref numbering;
 * a reader picks what to cite from what each pipeline put in front of it, as a real model would.
 * It reads the numbered-context shape any RAG prompt has ("Question: …", "Context:", "[n] title —
 * source" headers, passage text), so the hand-rolled pipeline writes its own prompt.
 */
import { createServer } from 'node:http';
import { parseContextPrompt } from '../../server/runtime/reasoner/context-prompt';
import { selectEvidence } from '../../server/adapters/models/extractive-reader';
import { composeAnswer } from '../../server/adapters/models/extractive-answer-text';
import { listenOnLoopback, readBody, writeJson } from '../../server/testing/loopback-http';

export interface LoopbackReaderServer {
  /** Base URL including /v1, as OpenAI clients expect it. */
  readonly baseURL: string;
  /** Chat calls answered since the start. */
  readonly calls: number;
  close(): Promise<void>;
}

interface ChatMessage {
  readonly role?: unknown;
  readonly content?: unknown;
}

const words = (text: string) => text.split(/\s+/).filter(Boolean).length;

/** Message content as text: a string, or the text parts of a content array. */
function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.map((part: { type?: unknown; text?: unknown }) => (part?.type === 'text' && typeof part.text === 'string' ? part.text : '')).join('');
}

export function answerFor(messages: readonly ChatMessage[]): string {
  const lastUser = [...messages].reverse().find((message) => message.role === 'user');
  const text = textOf(lastUser?.content);
  const prompt = parseContextPrompt(text) ?? { question: text.trim(), blocks: [] };
  return composeAnswer(prompt.question, selectEvidence(prompt));
}

export async function startLoopbackReaderServer(): Promise<LoopbackReaderServer> {
  let calls = 0;
  const server = createServer(async (request, response) => {
    const path = (request.url ?? '/').split('?')[0];
    let body: { model?: unknown; messages?: unknown; stream?: unknown };
    try {
      body = JSON.parse(await readBody(request)) as typeof body;
    } catch {
      return writeJson(response, 400, { error: { message: 'body is not JSON', type: 'invalid_request_error', code: null } });
    }
    if (request.method !== 'POST' || !/^(\/v1)?\/chat\/completions$/.test(path)) {
      return writeJson(response, 404, { error: { message: `no route ${request.method} ${path}`, type: 'invalid_request_error', code: null } });
    }
    if (body.stream === true) return writeJson(response, 400, { error: { message: 'stream is not supported here', type: 'invalid_request_error', code: null } });
    const messages = Array.isArray(body.messages) ? (body.messages as ChatMessage[]) : [];
    const answer = answerFor(messages);
    calls += 1;
    // Usage as whitespace word counts, the convention of server/testing/loopback-openai-server.ts.
    const promptTokens = messages.reduce((sum, message) => sum + words(textOf(message.content)), 0);
    const completionTokens = words(answer);
    writeJson(response, 200, {
      id: `chatcmpl-reader-${calls}`, object: 'chat.completion', created: 1_715_650_000, model: String(body.model ?? 'loopback-reader'),
      choices: [{ index: 0, message: { role: 'assistant', content: answer }, finish_reason: 'stop' }],
      usage: { prompt_tokens: promptTokens, completion_tokens: completionTokens, total_tokens: promptTokens + completionTokens },
    });
  });
  const listening = await listenOnLoopback(server);
  return {
    ...listening,
    get calls() {
      return calls;
    },
  };
}
