/**
 * A tier's limits across processes (issue 13, point 2). The process-wide TierLimiter keeps one
 * process within max_concurrency, rpm and tpm, but a provider counts per key and model, whichever
 * machine sends: three workers each within the limits send three times them. Processes that share a
 * PostgreSQL server also record each call in a ledger there (pg-tier-admissions.ts), and a call goes
 * only once the ledger admits it too.
 */
import type { Admission, TierLimits } from './tier-limiter';

export interface TierAdmissionRequest {
  /** The provider model's limiter key (provider, endpoint, model, key variable): the same in every process. */
  readonly key: string;
  readonly limits: TierLimits;
  /** Tokens the call may spend (prompt + allowed output) until its usage is known. */
  readonly tokens: number;
  /** How long the call may hold its slot if its process dies before settling it. */
  readonly leaseMs: number;
}

export type TierAdmissionAnswer = { readonly admitted: true; readonly id: number } | { readonly admitted: false; readonly retryAfterMs: number };

/** Admission shared by every process of one deployment. */
export interface TierAdmissionLedger {
  /** Records the call when the limits admit it over every process's calls; otherwise says when to ask again. */
  tryAdmit(request: TierAdmissionRequest): Promise<TierAdmissionAnswer>;
  /** The call ended: it leaves the calls in flight; its tokens become what it really spent. */
  settle(id: number, actualTokens?: number): Promise<void>;
}

/** Longest pause between two asks: a slot freed by another process is noticed within it. */
const MAX_POLL_MS = 250;

/**
 * Waits until the ledger admits the call (rejecting with the signal's reason if it aborts first).
 * Waits are jittered so processes blocked on one limit do not all ask again at the same instant.
 */
export async function admitAcrossProcesses(ledger: TierAdmissionLedger, request: TierAdmissionRequest, signal?: AbortSignal): Promise<Admission> {
  for (;;) {
    signal?.throwIfAborted();
    const answer = await ledger.tryAdmit(request);
    if (answer.admitted) return ledgerAdmission(ledger, answer.id);
    const pauseMs = Math.min(MAX_POLL_MS, Math.max(10, answer.retryAfterMs)) * (0.5 + Math.random() / 2);
    await pause(pauseMs, signal);
  }
}

function ledgerAdmission(ledger: TierAdmissionLedger, id: number): Admission {
  let settled = false;
  return {
    settle(actualTokens) {
      if (settled) return;
      settled = true;
      // Not awaited: the call's answer does not wait on bookkeeping. A settle that fails leaves the
      // row in flight only until its lease ends.
      ledger.settle(id, actualTokens).catch((error: unknown) => console.warn(`tier admission ${id} not settled (its lease frees it): ${error instanceof Error ? error.message : String(error)}`));
    },
  };
}

function pause(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
