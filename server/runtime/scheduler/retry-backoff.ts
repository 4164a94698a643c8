/**
 * When a failed node is tried again. Exponential backoff with "equal jitter" (Brooker, "Exponential
 * Backoff And Jitter", AWS Architecture Blog 2015): the n-th wait is drawn from [c/2, c] with
 * c = base × 2^(n−1), capped. Runs that failed together against one provider (a 5xx burst, a rate
 * limit) then come back spread out instead of all at once, and no retry is ever immediate.
 */
import { isContextRuntimeError } from '../errors';

/** No single wait longer than this: a node timeout is usually shorter, and a cancel should not wait on a sleep. */
export const MAX_BACKOFF_MS = 30_000;

/** Milliseconds to wait before attempt `attempt + 1`, after attempt `attempt` (from 1) failed. */
export function retryDelayMs(attempt: number, baseMs: number, random: () => number = Math.random): number {
  const ceiling = Math.min(MAX_BACKOFF_MS, Math.max(0, baseMs) * 2 ** Math.max(0, attempt - 1));
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}

/**
 * Whether trying again could help. A user error (bad input, a missing source, a conflict) or a
 * policy refusal (FORBIDDEN) fails the same way every time: retrying it only spends the budget and
 * hides the answer the caller needs. Everything else (a model down, a timeout) may pass next time.
 */
export function isRetryable(error: unknown): boolean {
  return !(isContextRuntimeError(error) && error.isUserError);
}

/** Resolves after `ms`, or at once when `signal` aborts (a cancelled run does not sit out its backoff). */
export function sleepUnlessAborted(ms: number, signal?: AbortSignal): Promise<void> {
  if (ms <= 0 || signal?.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });
}
