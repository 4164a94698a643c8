import { ContextRuntimeError } from '../errors';

/**
 * The one signal an ingest runs under (issue 13, point 1): its caller's (a CLI's Ctrl-C, a client
 * that closed the connection) or ingest.timeout_ms, whichever comes first. The ingester checks it
 * between files, batches and sources and undoes the source it was writing (pg-store.ts), so a stop
 * leaves every source either as it was or at a whole new version.
 *
 * Whatever the ingester throws once the signal has fired, the caller hears why it stopped (a
 * cancel or the timeout), not the AbortError of whichever read or git command it happened to cut.
 */

export interface IngestDeadline {
  /** The caller's signal, if any. */
  readonly signal?: AbortSignal;
  /** ingest.timeout_ms; null: no limit. */
  readonly timeoutMs: number | null;
}

const STOP_NOTE = 'no source is left half-written (one cut short keeps its previous version; passages not yet embedded are embedded at the next ingest or start)';

export async function underIngestDeadline<T>(deadline: IngestDeadline, work: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const controller = new AbortController();
  const { signal: caller, timeoutMs } = deadline;
  const onCallerAbort = () => controller.abort(new ContextRuntimeError('CANCELLED', `the ingest was cancelled by its caller; ${STOP_NOTE}`));
  const timer =
    timeoutMs === null
      ? undefined
      : setTimeout(() => controller.abort(new ContextRuntimeError('TIMEOUT', `the ingest ran past ingest.timeout_ms (${timeoutMs} ms) and was stopped; ${STOP_NOTE}`, { details: { timeoutMs } })), timeoutMs);
  if (caller?.aborted) onCallerAbort();
  else caller?.addEventListener('abort', onCallerAbort, { once: true });
  try {
    controller.signal.throwIfAborted();
    return await work(controller.signal);
  } catch (error) {
    throw controller.signal.aborted ? controller.signal.reason : error;
  } finally {
    clearTimeout(timer);
    caller?.removeEventListener('abort', onCallerAbort);
  }
}
