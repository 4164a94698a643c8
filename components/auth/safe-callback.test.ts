import { describe, expect, it } from 'vitest';
import { safeCallbackUrl, signInErrorMessage } from './safe-callback';

describe('safeCallbackUrl', () => {
  it.each([
    ['/traces?run=1', '/traces?run=1'],
    ['https://evil.example/', '/'],
    ['//evil.example/', '/'],
    ['/\\evil.example', '/'],
    ['/signin?callbackUrl=/x', '/'],
    [undefined, '/'],
  ])('%s → %s', (input, expected) => {
    expect(safeCallbackUrl(input)).toBe(expected);
  });
});

describe('signInErrorMessage', () => {
  it('explains a refused password without saying which half was wrong', () => {
    expect(signInErrorMessage('CredentialsSignin')).toBe('Wrong email or password, or the account is disabled.');
    expect(signInErrorMessage(undefined)).toBeUndefined();
  });
});
