import { createServer, type ServerResponse } from 'node:http';
import { listenOnLoopback, readBody, writeJson } from './loopback-http';

/**
 * A real HTTP server on 127.0.0.1 speaking the OpenAI Chat Completions wire protocol
 * (POST /v1/chat/completions, JSON or SSE when `stream: true`), for tests of the provider path
 * that must not leave the machine. Each test sets the reply, status and delay, and reads back the
 * requests the client really sent.
 */
export interface LoopbackReply {
  readonly text: string;
  /** HTTP status; anything but 200 answers with an OpenAI-style error body. */
  readonly status: number;
  /** Milliseconds to wait before answering (to force a client timeout). */
  readonly delayMs: number;
  /**
   * Usage to report; null reports none. Default: whitespace word counts of prompt and reply.
   * `prompt_tokens_details.cached_tokens` scripts the provider's own prompt-cache reads.
   */
  readonly usage?: { readonly prompt_tokens: number; readonly completion_tokens: number; readonly prompt_tokens_details?: { readonly cached_tokens: number } } | null;
  readonly model?: string;
  /**
   * Tool calls the model makes (OpenAI's `tool_calls`, finish_reason `tool_calls`); the text, when
   * not empty, is said beside them. The client then sends `role: "tool"` messages with the results.
   */
  readonly toolCalls?: readonly LoopbackToolCall[];
  /**
   * Per request, overrides of text, delay or usage (a priced tier's latency and reply-length
   * distributions in bench:calibration); called with the request body, after it is recorded.
   */
  readonly vary?: (body: Record<string, unknown>) => Partial<Pick<LoopbackReply, 'text' | 'delayMs' | 'usage'>>;
}

export interface LoopbackToolCall {
  readonly name: string;
  readonly arguments: unknown;
  /** Default: call_<request number>_<index>. */
  readonly id?: string;
}

export interface RecordedRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  /** The request body exactly as received (every byte the client sent after the headers). */
  readonly raw: string;
  readonly body: Record<string, unknown>;
}

/** One chat call's life at the server: when it arrived and how it ended (performance.now() milliseconds). */
export interface LoopbackCall {
  readonly model: string;
  readonly arrivedAt: number;
  /** Set when the exchange ended: `answered` (the reply was written) or `aborted` (the client closed the connection first). */
  endedAt?: number;
  ended?: 'answered' | 'aborted';
}

export interface LoopbackOpenAIServer {
  /** Base URL including /v1, as OpenAI clients expect it. */
  readonly baseURL: string;
  readonly requests: readonly RecordedRequest[];
  /** Chat calls in arrival order, with how each ended: what a test of timeouts, cancels and caps reads. */
  readonly calls: readonly LoopbackCall[];
  /** The most chat calls that were open at once since the start. */
  readonly peakInFlight: number;
  /** Changes the reply for subsequent requests. */
  reply(next: Partial<LoopbackReply>): void;
  /**
   * Answers each chat call from its request body (a scripted model: one reply for the answering
   * call, another for a judge's); undefined falls back to the `reply` set. Null removes the script.
   */
  script(respond: ((body: Record<string, unknown>) => Partial<LoopbackReply> | undefined) | null): void;
  close(): Promise<void>;
}

// Fixed so recorded responses are byte-identical between runs.
const CREATED = 1_715_650_000;
const words = (text: string) => text.split(/\s+/).filter(Boolean).length;

function promptWords(body: Record<string, unknown>): number {
  const messages = Array.isArray(body.messages) ? (body.messages as { content?: unknown }[]) : [];
  return messages.reduce((sum, message) => sum + (typeof message.content === 'string' ? words(message.content) : 0), 0);
}

function writeCompletion(response: ServerResponse, reply: LoopbackReply, body: Record<string, unknown>, id: string): void {
  const model = reply.model ?? String(body.model ?? 'loopback');
  const usage = reply.usage === null ? undefined : (reply.usage ?? { prompt_tokens: promptWords(body), completion_tokens: words(reply.text) });
  const withTotal = usage && { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens };
  const toolCalls = (reply.toolCalls ?? []).map((call, index) => ({ id: call.id ?? `call_${id.split('-').at(-1)}_${index}`, type: 'function', function: { name: call.name, arguments: JSON.stringify(call.arguments) } }));
  const finishReason = toolCalls.length > 0 ? 'tool_calls' : 'stop';
  if (body.stream !== true) {
    const message = { role: 'assistant', content: toolCalls.length > 0 && reply.text === '' ? null : reply.text, ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}) };
    writeJson(response, 200, {
      id, object: 'chat.completion', created: CREATED, model,
      choices: [{ index: 0, message, finish_reason: finishReason }],
      ...(withTotal ? { usage: withTotal } : {}),
    });
    return;
  }
  response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
  const send = (payload: unknown) => response.write(`data: ${JSON.stringify(payload)}\n\n`);
  const chunk = (delta: Record<string, unknown>, finishReason: string | null) =>
    send({ id, object: 'chat.completion.chunk', created: CREATED, model, choices: [{ index: 0, delta, finish_reason: finishReason }] });
  chunk({ role: 'assistant', content: '' }, null);
  for (const piece of reply.text.match(/\S+\s*|\s+/g) ?? []) chunk({ content: piece }, null);
  // Each call streamed as OpenAI does: its id and name first, then its arguments in pieces.
  toolCalls.forEach((call, index) => {
    chunk({ tool_calls: [{ index, id: call.id, type: 'function', function: { name: call.function.name, arguments: '' } }] }, null);
    for (const piece of call.function.arguments.match(/.{1,16}/gs) ?? []) chunk({ tool_calls: [{ index, function: { arguments: piece } }] }, null);
  });
  chunk({}, finishReason);
  const streamOptions = body.stream_options as { include_usage?: boolean } | undefined;
  if (withTotal && streamOptions?.include_usage) send({ id, object: 'chat.completion.chunk', created: CREATED, model, choices: [], usage: withTotal });
  response.end('data: [DONE]\n\n');
}

export async function startLoopbackOpenAIServer(initial: Partial<LoopbackReply> = {}): Promise<LoopbackOpenAIServer> {
  let current: LoopbackReply = { text: 'ok', status: 200, delayMs: 0, ...initial };
  let respond: ((body: Record<string, unknown>) => Partial<LoopbackReply> | undefined) | null = null;
  const requests: RecordedRequest[] = [];
  const calls: LoopbackCall[] = [];
  let inFlight = 0;
  let peakInFlight = 0;
  const server = createServer(async (request, response) => {
    const path = (request.url ?? '/').split('?')[0];
    const raw = await readBody(request);
    let body: Record<string, unknown> = {};
    try {
      body = raw.length > 0 ? (JSON.parse(raw) as Record<string, unknown>) : {};
    } catch {
      writeJson(response, 400, { error: { message: 'body is not JSON', type: 'invalid_request_error', code: null } });
      return;
    }
    requests.push(Object.freeze({ method: request.method ?? 'GET', path, headers: { ...request.headers }, raw, body }));
    if (request.method !== 'POST' || !/^(\/v1)?\/chat\/completions$/.test(path)) {
      writeJson(response, 404, { error: { message: `no route ${request.method} ${path}`, type: 'invalid_request_error', code: null } });
      return;
    }
    const call: LoopbackCall = { model: String(body.model ?? ''), arrivedAt: performance.now() };
    calls.push(call);
    peakInFlight = Math.max(peakInFlight, ++inFlight);
    response.on('close', () => {
      inFlight--;
      call.endedAt = performance.now();
      call.ended = response.writableFinished ? 'answered' : 'aborted';
    });
    const varied: LoopbackReply = current.vary ? { ...current, ...current.vary(body) } : current;
    const reply: LoopbackReply = { ...varied, ...(respond?.(body) ?? {}) };
    const id = `chatcmpl-loopback-${requests.length}`;
    const answer = () => {
      if (response.destroyed) return;
      if (reply.status !== 200) writeJson(response, reply.status, { error: { message: `loopback status ${reply.status}`, type: 'server_error', code: null } });
      else writeCompletion(response, reply, body, id);
    };
    if (reply.delayMs <= 0) return answer();
    const timer = setTimeout(answer, reply.delayMs);
    // A client that gave up (timeout) closes the socket: stop waiting so close() is immediate.
    response.on('close', () => clearTimeout(timer));
  });
  const listening = await listenOnLoopback(server);
  return {
    ...listening,
    requests,
    calls,
    get peakInFlight() {
      return peakInFlight;
    },
    reply(next) {
      current = { ...current, ...next };
    },
    script(next) {
      respond = next;
    },
  };
}
