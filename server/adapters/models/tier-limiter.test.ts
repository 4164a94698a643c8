import { afterEach, describe, expect, it, vi } from 'vitest';
import { ContextRuntimeError } from '../../runtime/errors';
import { TierLimiter, sharedTierLimiter } from './tier-limiter';

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('TierLimiter', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('never lets more than max_concurrency calls in flight, and admits waiters in arrival order', async () => {
    const limiter = new TierLimiter({ maxConcurrency: 2 });
    const admitted: number[] = [];
    const admissions = [1, 2, 3, 4].map((call) => limiter.acquire(10).then((admission) => (admitted.push(call), admission)));
    await tick();
    expect(admitted).toEqual([1, 2]);
    expect(limiter.active).toBe(2);
    (await admissions[1]).settle(5);
    await tick();
    expect(admitted).toEqual([1, 2, 3]);
    expect(limiter.active).toBe(2);
    (await admissions[0]).settle();
    (await admissions[2]).settle();
    await tick();
    expect(admitted).toEqual([1, 2, 3, 4]);
    expect(limiter.active).toBe(1);
  });

  it('holds the rpm+1-th call of a rolling minute until the first one leaves it', async () => {
    vi.useFakeTimers();
    const limiter = new TierLimiter({ requestsPerMinute: 2 });
    const admittedAt: number[] = [];
    const origin = Date.now();
    const take = () => limiter.acquire(1).then((admission) => (admittedAt.push(Date.now() - origin), admission.settle(1)));
    const first = take();
    await vi.advanceTimersByTimeAsync(10_000);
    const second = take();
    const third = take();
    await vi.advanceTimersByTimeAsync(49_999);
    expect(admittedAt).toEqual([0, 10_000]);
    await vi.advanceTimersByTimeAsync(1);
    await Promise.all([first, second, third]);
    expect(admittedAt).toEqual([0, 10_000, 60_000]);
  });

  it('holds a call whose tokens would pass tpm, counting what earlier calls really spent', async () => {
    vi.useFakeTimers();
    const limiter = new TierLimiter({ tokensPerMinute: 1000 });
    const first = await limiter.acquire(900);
    // Reported usage replaces the estimate: 300 spent leaves room for 700.
    first.settle(300);
    const second = await limiter.acquire(700);
    second.settle(700);
    let thirdAdmitted = false;
    const third = limiter.acquire(50).then((admission) => ((thirdAdmitted = true), admission));
    await vi.advanceTimersByTimeAsync(59_999);
    expect(thirdAdmitted).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    (await third).settle(50);
    expect(thirdAdmitted).toBe(true);
    // A request larger than the whole minute still goes, alone in its window.
    await vi.advanceTimersByTimeAsync(60_000);
    (await limiter.acquire(5000)).settle(5000);
  });

  it('gives up a wait when the caller aborts, with the caller’s reason, and frees the queue behind it', async () => {
    const limiter = new TierLimiter({ maxConcurrency: 1 });
    const holder = await limiter.acquire(1);
    const caller = new AbortController();
    const waiting = limiter.acquire(1, caller.signal);
    const behind = limiter.acquire(1);
    const reason = new ContextRuntimeError('TIMEOUT', 'node reason timed out after 500 ms');
    caller.abort(reason);
    await expect(waiting).rejects.toBe(reason);
    holder.settle();
    const next = await behind;
    expect(limiter.active).toBe(1);
    next.settle();
    expect(limiter.active).toBe(0);
  });

  it('is one per provider model in the process, and none without limits', () => {
    const limits = { maxConcurrency: 3, requestsPerMinute: 60 };
    expect(sharedTierLimiter('openai|https://api.example/v1|m|KEY', limits)).toBe(sharedTierLimiter('openai|https://api.example/v1|m|KEY', { ...limits }));
    expect(sharedTierLimiter('openai|https://api.example/v1|other|KEY', limits)).not.toBe(sharedTierLimiter('openai|https://api.example/v1|m|KEY', limits));
    expect(sharedTierLimiter('openai|x|m|KEY', {})).toBeUndefined();
  });
});
