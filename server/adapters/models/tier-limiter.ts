/**
 * Admission to one provider model: at most `maxConcurrency` calls in flight, `requestsPerMinute`
 * calls and `tokensPerMinute` tokens per rolling minute. Providers enforce these per key and model,
 * whichever run or router instance sends the call, so one limiter per model is shared by the whole
 * process (sharedTierLimiter); processes sharing a PostgreSQL server also pass a ledger there
 * (cluster-admission.ts). Waiters are admitted first come, first served: a large request at the
 * head is not starved by small ones slipping past it.
 */

export interface TierLimits {
  readonly maxConcurrency?: number;
  readonly requestsPerMinute?: number;
  readonly tokensPerMinute?: number;
}

/** A granted call: report what it really spent once it ended (success or not), exactly once. */
export interface Admission {
  settle(actualTokens?: number): void;
}

const WINDOW_MS = 60_000;

interface Waiter {
  readonly tokens: number;
  readonly admit: (admission: Admission) => void;
  readonly signal?: AbortSignal;
  readonly onAbort: () => void;
}

export class TierLimiter {
  private inFlight = 0;
  /** Calls admitted within the last minute, oldest first; `tokens` corrected when the call settles. */
  private readonly window: { readonly at: number; tokens: number }[] = [];
  private readonly waiting: Waiter[] = [];
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    readonly limits: TierLimits,
    private readonly now: () => number = () => Date.now(),
  ) {}

  /** Calls in flight now (for tests and diagnostics). */
  get active(): number {
    return this.inFlight;
  }

  /** Resolves once the call may go; rejects with the signal's reason if it aborts while waiting. */
  acquire(tokens: number, signal?: AbortSignal): Promise<Admission> {
    signal?.throwIfAborted();
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        tokens,
        admit: resolve,
        signal,
        onAbort: () => {
          const index = this.waiting.indexOf(waiter);
          if (index >= 0) this.waiting.splice(index, 1);
          reject(signal?.reason);
          this.pump();
        },
      };
      signal?.addEventListener('abort', waiter.onAbort, { once: true });
      this.waiting.push(waiter);
      this.pump();
    });
  }

  private pump(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    const now = this.now();
    while (this.window.length > 0 && this.window[0].at <= now - WINDOW_MS) this.window.shift();
    while (this.waiting.length > 0 && this.admits(this.waiting[0].tokens)) {
      const waiter = this.waiting.shift()!;
      waiter.signal?.removeEventListener('abort', waiter.onAbort);
      waiter.admit(this.grant(waiter.tokens, now));
    }
    // Blocked by the minute's budget (not by calls in flight): look again when the oldest entry leaves it.
    if (this.waiting.length > 0 && this.window.length > 0 && this.inFlight < (this.limits.maxConcurrency ?? Infinity)) {
      this.timer = setTimeout(() => this.pump(), this.window[0].at + WINDOW_MS - now);
      this.timer.unref?.();
    }
  }

  private admits(tokens: number): boolean {
    const { maxConcurrency, requestsPerMinute, tokensPerMinute } = this.limits;
    if (maxConcurrency !== undefined && this.inFlight >= maxConcurrency) return false;
    if (requestsPerMinute !== undefined && this.window.length >= requestsPerMinute) return false;
    // A request larger than the whole minute's budget still goes, alone in its window: refusing it forever would hang the run.
    if (tokensPerMinute !== undefined && this.window.length > 0 && this.window.reduce((sum, entry) => sum + entry.tokens, 0) + tokens > tokensPerMinute) return false;
    return true;
  }

  private grant(tokens: number, now: number): Admission {
    const entry = { at: now, tokens };
    this.window.push(entry);
    this.inFlight++;
    let settled = false;
    return {
      settle: (actualTokens) => {
        if (settled) return;
        settled = true;
        if (actualTokens !== undefined) entry.tokens = actualTokens;
        this.inFlight--;
        this.pump();
      },
    };
  }
}

const shared = new Map<string, TierLimiter>();

/**
 * The process-wide limiter of one provider model (`key`: provider, endpoint, model, key variable),
 * created on first use; undefined when no limit is configured. Every router and run reuses it.
 */
export function sharedTierLimiter(key: string, limits: TierLimits): TierLimiter | undefined {
  if (limits.maxConcurrency === undefined && limits.requestsPerMinute === undefined && limits.tokensPerMinute === undefined) return undefined;
  const id = `${key}|${limits.maxConcurrency ?? ''}|${limits.requestsPerMinute ?? ''}|${limits.tokensPerMinute ?? ''}`;
  let limiter = shared.get(id);
  if (!limiter) {
    limiter = new TierLimiter(limits);
    shared.set(id, limiter);
  }
  return limiter;
}
