/**
 * GET /api/v1/runs/:id/events: a run's progress as server-sent events, read from the same source
 * as the console's stream (live-run-registry.ts, fed by the runtime's onProgress). Each event is
 * `id: <seq>`, `event: progress | result | error`, `data: <JSON>`; a client that reconnects sends
 * Last-Event-ID and resumes after it. A run this process does not hold live (another process runs
 * it, or it ended long ago) is polled from the run store until it settles.
 */
import type { Principal } from '../../runtime/types';
import { liveRun, type LiveRun } from '../live-run-registry';
import type { RuntimePort } from '../runtime-port';
import { toErrorResponse } from './v1-errors';

/** How often a run this process does not hold live is read again. */
const POLL_MS = 500;

interface StreamEvent {
  readonly id: string;
  readonly event: 'progress' | 'result' | 'error';
  readonly data: unknown;
}

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
  });

async function* replayLive(live: LiveRun, seenSeq: number, signal: AbortSignal): AsyncGenerator<StreamEvent> {
  for (let seq = seenSeq + 1; !signal.aborted; ) {
    while (seq <= live.events.length) {
      const event = live.events[seq - 1]!;
      yield event.type === 'result' ? { id: String(seq), event: 'result', data: event } : { id: String(seq), event: 'progress', data: event };
      if (event.type === 'result') return;
      seq++;
    }
    if (live.settled) {
      yield { id: String(seq), event: 'error', data: { type: 'error', ...(await errorBody(live.error ?? new Error(`run ${live.runId} ended without a result`))) } };
      return;
    }
    await live.changed();
  }
}

async function* pollStored(runtime: RuntimePort, runId: string, principal: Principal, signal: AbortSignal): AsyncGenerator<StreamEvent> {
  for (let poll = 1; !signal.aborted; poll++) {
    const { run } = await runtime.getRun(runId, principal);
    if (run.status !== 'running') {
      yield { id: `stored-${poll}`, event: 'result', data: { type: 'result', result: run } };
      return;
    }
    await sleep(POLL_MS, signal);
  }
}

/** The same `{ error: { code, message, field } }` body a failed request gets, internals hidden. */
async function errorBody(error: unknown): Promise<object> {
  return (await toErrorResponse(error, 'GET /api/v1/runs/:id/events').json()) as object;
}

const seqOf = (lastEventId: string | null): number => (/^\d+$/.test(lastEventId ?? '') ? Number(lastEventId) : 0);

const encode = (event: StreamEvent): string => `id: ${event.id}\nevent: ${event.event}\ndata: ${JSON.stringify(event.data)}\n\n`;

/**
 * The stream for a run the caller may read: `runtime.getRun` is asked first (by the endpoint), so
 * an unknown or unreadable id is a 404 before any stream opens.
 */
export function runEventStream(runtime: RuntimePort, runId: string, principal: Principal, request: Request): Response {
  const abort = new AbortController();
  request.signal.addEventListener('abort', () => abort.abort(), { once: true });
  const live = liveRun(runtime, runId);
  const events = live ? replayLive(live, seqOf(request.headers.get('last-event-id')), abort.signal) : pollStored(runtime, runId, principal, abort.signal);
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const next = await events.next();
        if (next.done || abort.signal.aborted) return controller.close();
        controller.enqueue(encoder.encode(encode(next.value)));
      } catch (error) {
        controller.enqueue(encoder.encode(encode({ id: 'error', event: 'error', data: { type: 'error', ...(await errorBody(error)) } })));
        controller.close();
      }
    },
    cancel() {
      abort.abort();
    },
  });
  return new Response(body, { headers: { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache, no-transform', connection: 'keep-alive', 'x-accel-buffering': 'no' } });
}
