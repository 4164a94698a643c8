/**
 * Issue 12, finding 6: sign-in had no throttle, so every guess cost a 32 MiB scrypt and guessing
 * never slowed down. These fail on the old code, where nothing stood between a request and the hash.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS } from '../runtime/config/limits-schema';
import type { ContextRuntimeError } from '../runtime/errors';
import { clientAddressOf, SignInThrottle, throttledAuthenticate } from './sign-in-throttle';

function setup(limits = DEFAULT_LIMITS.sign_in) {
  let clock = Date.parse('2026-03-04T12:00:00Z');
  const throttle = new SignInThrottle(limits, () => clock);
  const hashed: string[] = [];
  // Stands in for UserStore.authenticate: records each password check that reached the hash.
  const authenticate = async (email: string, password: string) => {
    hashed.push(email);
    return password === 'right password' ? { email } : undefined;
  };
  const attempt = (email: string, password: string, address?: string) => throttledAuthenticate(throttle, authenticate, email, password, address);
  const refusal = (promise: Promise<unknown>) =>
    promise.then(
      () => undefined,
      (error: unknown) => error as ContextRuntimeError,
    );
  return { attempt, refusal, hashed, advance: (seconds: number) => (clock += seconds * 1000) };
}

describe('SignInThrottle', () => {
  it('locks an account after 5 failures, refusing even the right password without hashing it', async () => {
    const { attempt, refusal, hashed, advance } = setup();
    for (let index = 0; index < 5; index++) expect(await attempt('ada@example.com', `guess ${index}`, `10.0.0.${index}`)).toBeUndefined();
    const refused = await refusal(attempt('ADA@example.com', 'right password', '10.0.1.1'));
    expect(refused).toMatchObject({ code: 'RATE_LIMITED', details: { retryAfterSeconds: 30 } });
    expect(refused!.message).toBe('Too many sign-in attempts: try again in 30 seconds.');
    expect(hashed).toHaveLength(5);
    // Other accounts are unaffected; after the lockout the right password works and clears the count.
    expect(await attempt('bo@example.com', 'right password')).toEqual({ email: 'bo@example.com' });
    advance(30);
    expect(await attempt('ada@example.com', 'right password')).toEqual({ email: 'ada@example.com' });
    expect(await attempt('ada@example.com', 'guess again')).toBeUndefined();
  });

  it('doubles the lockout with each further failure, up to the maximum', async () => {
    const { attempt, refusal, advance } = setup({ ...DEFAULT_LIMITS.sign_in, max_lockout_seconds: 100 });
    for (let index = 0; index < 5; index++) await attempt('ada@example.com', 'wrong');
    const waits: number[] = [];
    for (let index = 0; index < 4; index++) {
      const { details } = (await refusal(attempt('ada@example.com', 'wrong')))!;
      waits.push(details.retryAfterSeconds as number);
      advance(details.retryAfterSeconds as number);
      await attempt('ada@example.com', 'wrong');
    }
    expect(waits).toEqual([30, 60, 100, 100]);
  });

  it('limits one address spreading guesses over many accounts, not other addresses', async () => {
    const { attempt, refusal } = setup();
    for (let index = 0; index < 20; index++) await attempt(`user${index}@example.com`, 'wrong', '203.0.113.9');
    expect(await refusal(attempt('fresh@example.com', 'right password', '203.0.113.9'))).toMatchObject({ code: 'RATE_LIMITED' });
    expect(await attempt('fresh@example.com', 'right password', '198.51.100.4')).toEqual({ email: 'fresh@example.com' });
  });

  it('forgets failures older than the window', async () => {
    const { attempt, advance } = setup();
    for (let index = 0; index < 4; index++) await attempt('ada@example.com', 'wrong');
    advance(DEFAULT_LIMITS.sign_in.window_seconds + 1);
    await attempt('ada@example.com', 'wrong');
    expect(await attempt('ada@example.com', 'right password')).toEqual({ email: 'ada@example.com' });
  });
});

describe('clientAddressOf', () => {
  it('takes the first X-Forwarded-For hop, else X-Real-IP', () => {
    expect(clientAddressOf({ 'x-forwarded-for': '203.0.113.9, 10.0.0.1' })).toBe('203.0.113.9');
    expect(clientAddressOf({ 'x-real-ip': '198.51.100.4' })).toBe('198.51.100.4');
    expect(clientAddressOf({})).toBeUndefined();
    expect(clientAddressOf(undefined)).toBeUndefined();
  });
});
