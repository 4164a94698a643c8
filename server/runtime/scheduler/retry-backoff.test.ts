import { describe, expect, it } from 'vitest';
import { ContextRuntimeError, invalidInput } from '../errors';
import { MAX_BACKOFF_MS, isRetryable, retryDelayMs, sleepUnlessAborted } from './retry-backoff';

describe('retryDelayMs', () => {
  it('doubles the ceiling per attempt and draws from its upper half', () => {
    expect([1, 2, 3, 4].map((attempt) => retryDelayMs(attempt, 100, () => 0))).toEqual([50, 100, 200, 400]);
    expect([1, 2, 3, 4].map((attempt) => retryDelayMs(attempt, 100, () => 1))).toEqual([100, 200, 400, 800]);
  });

  it('spreads retries of runs that failed together (jitter), never below half the ceiling', () => {
    const draws = [0.1, 0.5, 0.9];
    const delays = draws.map((draw) => retryDelayMs(3, 200, () => draw));
    expect(new Set(delays).size).toBe(3);
    for (const delay of delays) expect(delay).toBeGreaterThanOrEqual(400);
    for (const delay of delays) expect(delay).toBeLessThanOrEqual(800);
  });

  it('caps a single wait, and a zero base never waits', () => {
    expect(retryDelayMs(30, 1000, () => 1)).toBe(MAX_BACKOFF_MS);
    expect(retryDelayMs(3, 0, () => 1)).toBe(0);
  });
});

describe('isRetryable', () => {
  it('does not retry a user error or a policy refusal, and retries the runtime’s own failures', () => {
    expect(isRetryable(invalidInput('goal', 'must not be empty'))).toBe(false);
    expect(isRetryable(new ContextRuntimeError('FORBIDDEN', 'tier cheap is not local', { details: { rule: 'policy.sensitive_content' } }))).toBe(false);
    expect(isRetryable(new ContextRuntimeError('MODEL_UNAVAILABLE', 'HTTP 503'))).toBe(true);
    expect(isRetryable(new ContextRuntimeError('TIMEOUT', 'node reason timed out'))).toBe(true);
    expect(isRetryable(new Error('connection reset'))).toBe(true);
  });
});

describe('sleepUnlessAborted', () => {
  it('ends at once when the run is cancelled during the wait', async () => {
    const cancel = new AbortController();
    const started = Date.now();
    const sleeping = sleepUnlessAborted(10_000, cancel.signal);
    cancel.abort();
    await sleeping;
    expect(Date.now() - started).toBeLessThan(1000);
  });
});
