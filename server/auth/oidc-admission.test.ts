/**
 * Issue 12, finding 4: OIDC sign-in through next-auth's own callbacks (signIn, jwt) against a real
 * users table. On the old code an identity provider's unverified `email` claim signed the caller in
 * as whichever account had that address — the admin's included — and a first sign-in got viewer.
 */
import type { Account, NextAuthOptions, Profile, User } from 'next-auth';
import type { JWT } from 'next-auth/jwt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, openDatabase } from '../../db/client';
import { migrateDatabase } from '../../db/migrate';
import { parseServerEnv } from '../config/env';
import { oidcCallbacks } from './auth-options';
import { UserStore } from './user-store';

type Callbacks = NonNullable<NextAuthOptions['callbacks']>;
const ISSUER = 'https://id.example.com/realms/ops';
let database: Database;
let users: UserStore;

const settings = (extra: Record<string, string> = {}) =>
  parseServerEnv({ CONTEXT_RUNTIME_OIDC_ISSUER: ISSUER, CONTEXT_RUNTIME_OIDC_CLIENT_ID: 'context-runtime', CONTEXT_RUNTIME_OIDC_CLIENT_SECRET: 's3cret', ...extra }).oidc!;

/** One OIDC sign-in as next-auth runs it: signIn decides, then jwt writes the session token. */
async function signIn(claims: Record<string, unknown> & { sub: string }, extra: Record<string, string> = {}): Promise<string | undefined | false> {
  const callbacks = oidcCallbacks(settings(extra), async () => users) as Required<Pick<Callbacks, 'signIn' | 'jwt'>>;
  const user: User = { id: claims.sub, email: (claims.email as string | undefined) ?? null, name: null };
  const account: Account = { provider: 'oidc', type: 'oauth', providerAccountId: claims.sub };
  const profile = claims as Profile;
  if ((await callbacks.signIn({ user, account, profile })) !== true) return false;
  const token = await callbacks.jwt({ token: {} as JWT, user, account, profile, trigger: 'signIn' });
  return token.email as string | undefined;
}

beforeAll(async () => {
  database = await openDatabase({ dataDir: 'memory://' });
  await migrateDatabase(database);
  users = new UserStore(database);
  await users.create({ email: 'admin@example.com', password: 'correct horse battery', roles: ['admin'] });
  await users.create({ email: 'ops@example.com', password: 'correct horse battery', roles: ['operator'] });
});

afterAll(async () => {
  await database?.close();
});

describe('OIDC sign-in', () => {
  it("refuses an unverified email claim, even one naming the admin's account", async () => {
    expect(await signIn({ sub: 'attacker-1', email: 'admin@example.com' })).toBe(false);
    expect(await signIn({ sub: 'attacker-1', email: 'admin@example.com', email_verified: false })).toBe(false);
    expect(await signIn({ sub: 'attacker-1', email: 'ADMIN@example.com', email_verified: 'false' })).toBe(false);
    expect((await users.findByEmail('admin@example.com'))!.oidc).toBeUndefined();
  });

  it('links an existing account on a verified email, then knows it by issuer + subject alone', async () => {
    expect(await signIn({ sub: 'ops-sub', email: 'ops@example.com', email_verified: true })).toBe('ops@example.com');
    expect((await users.findByEmail('ops@example.com'))!.oidc).toEqual({ issuer: ISSUER, subject: 'ops-sub' });
    // The provider later reports another (verified) address for the same person: the session is
    // still their own account, not the account that address belongs to.
    expect(await signIn({ sub: 'ops-sub', email: 'admin@example.com', email_verified: true })).toBe('ops@example.com');
  });

  it('refuses a second identity claiming the email of an account linked to another one', async () => {
    expect(await signIn({ sub: 'someone-else', email: 'ops@example.com', email_verified: true })).toBe(false);
  });

  it('gives a first sign-in no role (so no access) unless a default role is configured', async () => {
    expect(await signIn({ sub: 'new-1', email: 'newcomer@example.com', email_verified: true, name: 'New Comer' })).toBe('newcomer@example.com');
    expect(await users.findByEmail('newcomer@example.com')).toMatchObject({ roles: [], hasPassword: false, name: 'New Comer', oidc: { issuer: ISSUER, subject: 'new-1' } });
    expect(await signIn({ sub: 'new-2', email: 'second@example.com', email_verified: true }, { CONTEXT_RUNTIME_OIDC_DEFAULT_ROLE: 'viewer' })).toBe('second@example.com');
    expect((await users.findByEmail('second@example.com'))!.roles).toEqual(['viewer']);
    expect(() => settings({ CONTEXT_RUNTIME_OIDC_DEFAULT_ROLE: 'admin' })).toThrow(/CONTEXT_RUNTIME_OIDC_DEFAULT_ROLE must be none, viewer or operator/);
  });

  it('admits only allowed email domains and groups when lists are configured', async () => {
    const domains = { CONTEXT_RUNTIME_OIDC_ALLOWED_DOMAINS: 'corp.example, example.org' };
    expect(await signIn({ sub: 'd-1', email: 'eve@evil.example', email_verified: true }, domains)).toBe(false);
    expect(await signIn({ sub: 'd-2', email: 'Dana@Corp.Example', email_verified: true }, domains)).toBe('dana@corp.example');
    const groups = { CONTEXT_RUNTIME_OIDC_ALLOWED_GROUPS: 'sre' };
    expect(await signIn({ sub: 'g-1', email: 'gil@example.com', email_verified: true, groups: ['marketing'] }, groups)).toBe(false);
    expect(await signIn({ sub: 'g-1', email: 'gil@example.com', email_verified: true }, groups)).toBe(false);
    expect(await signIn({ sub: 'g-2', email: 'gail@example.com', email_verified: true, groups: ['SRE', 'dev'] }, groups)).toBe('gail@example.com');
  });

  it('refuses a disabled account however it is reached', async () => {
    await users.setDisabled('newcomer@example.com', true);
    expect(await signIn({ sub: 'new-1', email: 'newcomer@example.com', email_verified: true })).toBe(false);
  });
});
