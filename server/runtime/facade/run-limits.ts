/**
 * Per-user run limits (config `limits.runs`; issue 12, finding 6): how many runs one user may have
 * executing at once in this process, and how much recorded run cost they may spend per UTC day.
 * Without them one operator could fill every scheduler slot or spend the team's model budget.
 *
 * Concurrency is counted here, in memory: a run executing in this process is exactly what takes a
 * slot, and a crash releases it. Spend is read from the runs the store recorded (costs summed by
 * the store), so it holds across restarts; the plan's expected cost is added, so a run that would
 * cross the limit is refused before it spends. A user's recorded spend is read at most once per
 * SPEND_READ_FRESH_MS (bench:loc: the read was one of a run's 14 statements, ~1.3 ms); until the
 * next read, runs this process finished since add their cost at release. Another process's runs
 * that ended within that second are counted from the next read.
 */
import type { LimitsConfig } from '../config/limits-schema';
import type { RunStorePlugin } from '../contracts/run-store';
import { ContextRuntimeError } from '../errors';

/** How long a user's spend, read from the run store, is used before it is read again. */
export const SPEND_READ_FRESH_MS = 1000;

interface SpendRead {
  readonly dayStartMs: number;
  readonly readAtMs: number;
  /** Recorded spend at the read, plus the costs of this process's runs released since. */
  spentUsd: number;
}

/** Releases a run's slot; the cost it recorded (when known) counts toward its user's spend until the next read. */
export type ReleaseSlot = (recordedCostUsd?: number) => void;

export class RunLimiter {
  private readonly active = new Map<string, number>();
  private readonly spendReads = new Map<string, SpendRead>();

  constructor(
    private readonly runStore: RunStorePlugin,
    private readonly limits: LimitsConfig['runs'],
    private readonly now: () => Date = () => new Date(),
    /** A monotonic clock in milliseconds: how old a spend read is. */
    private readonly monotonicMs: () => number = () => performance.now(),
  ) {}

  /** Refuses with RATE_LIMITED when `user` is over a limit; otherwise takes a slot and returns its release. */
  async admit(user: string, expectedCostUsd: number): Promise<ReleaseSlot> {
    const dailyLimit = this.limits.max_daily_spend_usd_per_user;
    if (dailyLimit !== null && this.runStore.spendSince) {
      const now = this.now();
      const dayStart = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
      const spent = await this.spentToday(user, dayStart);
      if (spent + Math.max(0, expectedCostUsd) > dailyLimit) {
        const retryAfterSeconds = Math.ceil((dayStart.getTime() + 86_400_000 - now.getTime()) / 1000);
        throw new ContextRuntimeError(
          'RATE_LIMITED',
          `${user} has spent $${spent.toFixed(4)} of the $${dailyLimit.toFixed(2)} daily limit (this run expects $${expectedCostUsd.toFixed(4)}); the limit resets at 00:00 UTC`,
          { field: 'limits.runs.max_daily_spend_usd_per_user', details: { spentUsd: spent, limitUsd: dailyLimit, expectedCostUsd, retryAfterSeconds } },
        );
      }
    }
    // Checked and taken with no await in between, so two runs starting together cannot both take the last slot.
    const running = this.active.get(user) ?? 0;
    if (running >= this.limits.max_concurrent_per_user) {
      throw new ContextRuntimeError('RATE_LIMITED', `${user} already has ${running} runs executing (limit ${this.limits.max_concurrent_per_user}); wait for one to finish`, {
        field: 'limits.runs.max_concurrent_per_user',
        details: { running, limit: this.limits.max_concurrent_per_user, retryAfterSeconds: 5 },
      });
    }
    this.active.set(user, running + 1);
    let released = false;
    return (recordedCostUsd) => {
      if (released) return;
      released = true;
      const read = this.spendReads.get(user);
      if (read && recordedCostUsd !== undefined && Number.isFinite(recordedCostUsd) && recordedCostUsd > 0) read.spentUsd += recordedCostUsd;
      const left = (this.active.get(user) ?? 1) - 1;
      if (left <= 0) this.active.delete(user);
      else this.active.set(user, left);
    };
  }

  /** The user's recorded spend since `dayStart`: read again once the last read is SPEND_READ_FRESH_MS old or from another day. */
  private async spentToday(user: string, dayStart: Date): Promise<number> {
    const cached = this.spendReads.get(user);
    if (cached && cached.dayStartMs === dayStart.getTime() && this.monotonicMs() - cached.readAtMs < SPEND_READ_FRESH_MS) return cached.spentUsd;
    const readAtMs = this.monotonicMs();
    const spentUsd = await this.runStore.spendSince!(user, dayStart.toISOString());
    this.spendReads.set(user, { dayStartMs: dayStart.getTime(), readAtMs, spentUsd });
    return spentUsd;
  }
}
