/**
 * Sign-in attempts per account and per client address (config `limits.sign_in`; issue 12,
 * finding 6). Each password check is a 32 MiB scrypt on libuv's 4-thread pool, so unthrottled
 * guessing both brute-forces passwords and starves every other request of that pool. After
 * `max_failures_*` failures within the window, the account (or address) is locked out for
 * `lockout_seconds`, doubling with each further failure up to `max_lockout_seconds`; a locked
 * attempt is refused before any hashing. A success clears the account's failures.
 *
 * In memory, per process: several server processes each count their own attempts. The address
 * comes from X-Forwarded-For / X-Real-IP, which a client can forge unless a proxy sets them; the
 * per-account limit holds either way.
 */
import type { LimitsConfig } from '../runtime/config/limits-schema';
import { ContextRuntimeError } from '../runtime/errors';

interface Tally {
  failures: number[];
  lockedUntil: number;
}

/** Keys kept at most; the oldest are forgotten first, so a flood of made-up names cannot exhaust memory. */
const MAX_TRACKED_KEYS = 50_000;

export class SignInThrottle {
  private readonly tallies = new Map<string, Tally>();

  constructor(
    private readonly limits: LimitsConfig['sign_in'],
    private readonly now: () => number = Date.now,
  ) {}

  /** Throws RATE_LIMITED (with retryAfterSeconds) while the account or the address is locked out. */
  check(account: string, address: string | undefined): void {
    const now = this.now();
    for (const key of this.keysOf(account, address)) {
      const lockedUntil = this.tallies.get(key)?.lockedUntil ?? 0;
      if (lockedUntil > now) {
        const retryAfterSeconds = Math.ceil((lockedUntil - now) / 1000);
        throw new ContextRuntimeError('RATE_LIMITED', `Too many sign-in attempts: try again in ${retryAfterSeconds} seconds.`, { field: 'email', details: { retryAfterSeconds } });
      }
    }
  }

  recordFailure(account: string, address: string | undefined): void {
    const now = this.now();
    const windowStart = now - this.limits.window_seconds * 1000;
    for (const key of this.keysOf(account, address)) {
      const tally = this.tallies.get(key) ?? { failures: [], lockedUntil: 0 };
      tally.failures = [...tally.failures.filter((at) => at > windowStart), now];
      const limit = key.startsWith('ip:') ? this.limits.max_failures_per_ip : this.limits.max_failures_per_account;
      const over = tally.failures.length - limit;
      if (over >= 0) {
        const lockout = Math.min(this.limits.max_lockout_seconds, this.limits.lockout_seconds * 2 ** Math.min(over, 30));
        tally.lockedUntil = now + lockout * 1000;
      }
      this.tallies.delete(key);
      this.tallies.set(key, tally);
    }
    while (this.tallies.size > MAX_TRACKED_KEYS) this.tallies.delete(this.tallies.keys().next().value!);
  }

  recordSuccess(account: string): void {
    this.tallies.delete(`account:${account.trim().toLowerCase()}`);
  }

  private keysOf(account: string, address: string | undefined): string[] {
    return [`account:${account.trim().toLowerCase()}`, ...(address ? [`ip:${address}`] : [])];
  }
}

/** The client address a request names: the first X-Forwarded-For hop, else X-Real-IP. */
export function clientAddressOf(headers: Record<string, unknown> | undefined): string | undefined {
  const header = (name: string) => {
    const value = headers?.[name];
    return typeof value === 'string' ? value : Array.isArray(value) && typeof value[0] === 'string' ? value[0] : undefined;
  };
  const forwarded = header('x-forwarded-for')?.split(',')[0]?.trim();
  return forwarded || header('x-real-ip')?.trim() || undefined;
}

/** Password sign-in behind the throttle: a locked account or address is refused before scrypt runs. */
export async function throttledAuthenticate<User>(
  throttle: SignInThrottle,
  authenticate: (email: string, password: string) => Promise<User | undefined>,
  email: string,
  password: string,
  address: string | undefined,
): Promise<User | undefined> {
  throttle.check(email, address);
  const user = await authenticate(email, password);
  if (user) throttle.recordSuccess(email);
  else throttle.recordFailure(email, address);
  return user;
}
