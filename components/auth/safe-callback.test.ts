import { describe, expect, it } from 'vitest';
import { safeCallbackUrl, signInErrorMessage } from './safe-callback';

describe('safeCallbackUrl', () => {
  it.each([
    ['/traces?run=1', '/traces?run=1'],
    ['https://evil.example/', '/'],
    ['//evil.example/', '/'],
    ['/\\evil.example', '/'],
    ['/signin?callbackUrl=/x', '/'],
    // Issue 12, finding 8: browsers drop the tab, leaving "//evil.example".
    ['/%09/evil.example', '/'],
    ['/\t/evil.example', '/'],
    ['/%2509/evil.example', '/'],
    ['/%5Cevil.example', '/'],
    ['/%2F/evil.example', '/'],
    ['/ /evil.example', '/%20/evil.example'],
    ['/%E0%A4%A', '/'],
    ['/knowledge?node=chk_1#lineage', '/knowledge?node=chk_1#lineage'],
    ['/plans/run%201', '/plans/run%201'],
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
