/**
 * An OpenAI-compatible chat server on 127.0.0.1 for tests and benches of runs executed by worker
 * processes: a fixed latency, a share of injected 5xx errors, responses that can be held back (so a
 * test kills a worker while its call is in flight), and a count per run of the calls it answered.
 * "Answered" means the response reached a live socket: a call whose worker died while it waited is
 * counted as abandoned, not as an execution. A run is named by a tag in its goal, `[run:LABEL]`; one
 * run makes several calls (LLM rerank batches, the answer), each told apart by its request body.
 */
import { createHash } from 'node:crypto';
import { createServer, type ServerResponse } from 'node:http';
import { listenOnLoopback, readBody, writeJson } from './loopback-http';
import { isJudgeCall, SUPPORTED_VERDICT } from './scripted-answer-model';

export interface CallCount {
  received: number;
  answered: number;
  /** Answered with an injected 5xx. */
  failed: number;
  /** The caller's socket closed before the answer (its process died, or it gave up). */
  abandoned: number;
  /**
   * Calls answered although the same request (byte for byte: same node, same inputs) had been
   * answered before: work done twice. A retry after an injected error or an abandoned call is not.
   */
  answeredTwice: number;
}

export interface CountingModelServer {
  readonly baseURL: string;
  /** Calls by run label (`[run:LABEL]` in the prompt); calls without a label count under "". */
  readonly calls: ReadonlyMap<string, CallCount>;
  /** Each call answered although the same request had been answered before: when, and what it asked. */
  readonly repeats: readonly { readonly label: string; readonly firstAt: number; readonly againAt: number; readonly asked: string }[];
  /** Calls received and not yet answered. */
  inFlight(): number;
  /** Holds every answer until `release` (calls keep arriving and are counted as received). */
  hold(): void;
  release(): void;
  close(): Promise<void>;
}

export interface CountingModelOptions {
  readonly latencyMs?: number;
  /** Share of calls answered 503, from 0 to 1. */
  readonly errorRate?: number;
  readonly text?: string;
  /** Seeds the error draw so a bench's failures repeat. */
  readonly seed?: number;
  /**
   * What a groundedness judge's request gets (its system prompt is the judge's): default a
   * SUPPORTED verdict, as a model would give `text`; without one the verification gate fails every
   * answer and retries it, doubling a run's calls (bench:workers, 2026-12-02).
   */
  readonly judgeText?: string;
}

const LABEL = /\[run:([\w-]+)\]/;

/** mulberry32: a tiny seeded generator, enough to spread injected errors reproducibly. */
function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let value = Math.imul(state ^ (state >>> 15), 1 | state);
    value = (value + Math.imul(value ^ (value >>> 7), 61 | value)) ^ value;
    return ((value ^ (value >>> 14)) >>> 0) / 4_294_967_296;
  };
}

export async function startCountingModelServer(options: CountingModelOptions = {}): Promise<CountingModelServer> {
  const latencyMs = options.latencyMs ?? 0;
  const errorRate = options.errorRate ?? 0;
  const text = options.text ?? 'The checkout-api pods ran out of memory [1].';
  const judgeText = options.judgeText ?? SUPPORTED_VERDICT;
  const random = seededRandom(options.seed ?? 13);
  const calls = new Map<string, CallCount>();
  let held: (() => void)[] | undefined;
  let pending = 0;

  const countOf = (label: string): CallCount => {
    let count = calls.get(label);
    if (!count) calls.set(label, (count = { received: 0, answered: 0, failed: 0, abandoned: 0, answeredTwice: 0 }));
    return count;
  };

  const answeredRequests = new Map<string, number>();
  const repeats: { label: string; firstAt: number; againAt: number; asked: string }[] = [];
  const answer = (response: ServerResponse, count: CallCount, body: Record<string, unknown>, digest: string) => {
    pending -= 1;
    if (response.destroyed || response.socket?.destroyed) {
      count.abandoned += 1;
      return;
    }
    if (random() < errorRate) {
      count.failed += 1;
      writeJson(response, 503, { error: { message: 'injected overload', type: 'server_error', code: null } });
      return;
    }
    count.answered += 1;
    const firstAt = answeredRequests.get(digest);
    // Calls without a label cannot be told apart by run: not judged.
    if (firstAt !== undefined && !digest.startsWith(':')) {
      count.answeredTwice += 1;
      const messages = Array.isArray(body.messages) ? (body.messages as { content?: unknown }[]) : [];
      repeats.push({ label: digest.split(':')[0], firstAt, againAt: Date.now(), asked: String(messages.at(-1)?.content ?? '').slice(0, 160) });
    }
    answeredRequests.set(digest, firstAt ?? Date.now());
    writeJson(response, 200, {
      id: `chatcmpl-counting-${count.received}`,
      object: 'chat.completion',
      created: 1_715_650_000,
      model: String(body.model ?? 'loopback'),
      choices: [{ index: 0, message: { role: 'assistant', content: isJudgeCall(body) ? judgeText : text }, finish_reason: 'stop' }],
      usage: { prompt_tokens: 100, completion_tokens: 10, total_tokens: 110 },
    });
  };

  const server = createServer(async (request, response) => {
    const raw = await readBody(request);
    let body: Record<string, unknown> = {};
    try {
      body = JSON.parse(raw) as Record<string, unknown>;
    } catch {
      writeJson(response, 400, { error: { message: 'body is not JSON', type: 'invalid_request_error', code: null } });
      return;
    }
    const count = countOf(LABEL.exec(raw)?.[1] ?? '');
    count.received += 1;
    pending += 1;
    // Scoped to the run: different runs of one goal send identical requests (a rerank of the same
    // passages for the same failure terms), which are not one node executed twice.
    const digest = `${LABEL.exec(raw)?.[1] ?? ''}:${createHash('sha256').update(raw).digest('hex')}`;
    const respond = () => answer(response, count, body, digest);
    setTimeout(() => (held ? held.push(respond) : respond()), latencyMs);
  });
  const listening = await listenOnLoopback(server);
  return {
    baseURL: listening.baseURL,
    calls,
    repeats,
    inFlight: () => pending,
    hold() {
      held ??= [];
    },
    release() {
      const waiting = held ?? [];
      held = undefined;
      for (const respond of waiting) respond();
    },
    close: () => listening.close(),
  };
}
