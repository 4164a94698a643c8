import { describe, expect, it } from 'vitest';
import { hashPassword, verifyPassword } from './password-hasher';

describe('password hashing (scrypt)', () => {
  it('verifies the right password and refuses a wrong one', async () => {
    const stored = await hashPassword('correct horse battery');
    expect(stored).toMatch(/^scrypt\$32768\$8\$1\$[\w-]{22}\$[\w-]{43}$/);
    expect(stored).not.toContain('correct horse');
    await expect(verifyPassword('correct horse battery', stored)).resolves.toBe(true);
    await expect(verifyPassword('correct horse batterY', stored)).resolves.toBe(false);
  });

  it('salts each hash: the same password twice gives two different hashes, both valid', async () => {
    const [first, second] = await Promise.all([hashPassword('same password!'), hashPassword('same password!')]);
    expect(first).not.toBe(second);
    await expect(verifyPassword('same password!', first)).resolves.toBe(true);
    await expect(verifyPassword('same password!', second)).resolves.toBe(true);
  });

  it('refuses malformed or tampered hashes instead of throwing', async () => {
    const stored = await hashPassword('tamper with me');
    const parts = stored.split('$');
    await expect(verifyPassword('tamper with me', 'plain-text-password')).resolves.toBe(false);
    await expect(verifyPassword('tamper with me', [...parts.slice(0, 5), parts[5]!.slice(0, 10)].join('$'))).resolves.toBe(false);
    await expect(verifyPassword('tamper with me', ['scrypt', '0', '8', '1', parts[4], parts[5]].join('$'))).resolves.toBe(false);
    // A different salt with the same hash must not verify: the salt is part of the derivation.
    await expect(verifyPassword('tamper with me', [...parts.slice(0, 4), 'AAAAAAAAAAAAAAAAAAAAAA', parts[5]].join('$'))).resolves.toBe(false);
  });
});
