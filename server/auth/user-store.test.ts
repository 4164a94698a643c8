/**
 * Accounts, setup links, the first admin and request principals on a real embedded database
 * (PGlite in a temp dir, migrated like the server's), one database for the whole file.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { encode } from 'next-auth/jwt';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type Database, openDatabase } from '../../db/client';
import { migrateDatabase } from '../../db/migrate';
import { completeSetup, ensureFirstAdmin } from './first-admin';
import { CLI_PRINCIPAL, resolvePrincipal } from './request-principal';
import { SetupTokenStore } from './setup-token-store';
import { UserStore } from './user-store';

const root = mkdtempSync(path.join(tmpdir(), 'cr-user-store-'));
let database: Database;
let users: UserStore;
let clock = new Date('2026-11-30T08:00:00Z');
let tokens: SetupTokenStore;

beforeAll(async () => {
  database = await openDatabase({ dataDir: path.join(root, 'pglite') });
  await migrateDatabase(database);
  users = new UserStore(database);
  tokens = new SetupTokenStore(database, () => clock);
});

afterAll(async () => {
  await database?.close();
  rmSync(root, { recursive: true, force: true });
});

beforeEach(async () => {
  await database.exec('delete from users; delete from setup_tokens;');
  clock = new Date('2026-11-30T08:00:00Z');
});

describe('UserStore', () => {
  it('creates a user, lower-cases the email, never exposes the hash, and authenticates', async () => {
    const created = await users.create({ email: ' Ada@Example.COM ', name: 'Ada', password: 'a long enough password', roles: ['operator'] });
    expect(created).toMatchObject({ email: 'ada@example.com', name: 'Ada', roles: ['operator'], disabled: false, hasPassword: true });
    expect(JSON.stringify(created)).not.toContain('scrypt');
    const [row] = await database.query<{ password_hash: string }>(sql`select password_hash from users where email = 'ada@example.com'`);
    expect(row!.password_hash).toMatch(/^scrypt\$/);
    await expect(users.authenticate('ADA@example.com', 'a long enough password')).resolves.toMatchObject({ email: 'ada@example.com' });
    await expect(users.authenticate('ada@example.com', 'a long enough passworD')).resolves.toBeUndefined();
    await expect(users.authenticate('nobody@example.com', 'a long enough password')).resolves.toBeUndefined();
  });

  it.each([
    [{ email: 'not-an-email', password: 'a long enough password', roles: ['viewer'] }, 'email'],
    [{ email: 'bo@example.com', password: 'short', roles: ['viewer'] }, 'password'],
    [{ email: 'bo@example.com', password: 'a long enough password', roles: [] }, 'roles'],
    [{ email: 'bo@example.com', password: 'a long enough password', roles: ['superuser'] }, 'roles'],
  ])('refuses %j with INVALID_INPUT naming "%s"', async (input, field) => {
    const error = await users.create(input).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: 'INVALID_INPUT', field });
    expect((error as Error).message).toMatch(new RegExp(`^${field}: `));
    await expect(users.count()).resolves.toBe(0);
  });

  it('refuses a second account for the same email (any case) with CONFLICT', async () => {
    await users.create({ email: 'bo@example.com', password: 'a long enough password', roles: ['viewer'] });
    await expect(users.create({ email: 'BO@example.com', password: 'another long password', roles: ['admin'] })).rejects.toMatchObject({ code: 'CONFLICT', field: 'email' });
  });

  it('a disabled user cannot sign in; the last enabled admin cannot be disabled or demoted', async () => {
    await users.create({ email: 'root@example.com', password: 'a long enough password', roles: ['admin'] });
    await users.create({ email: 'op@example.com', password: 'a long enough password', roles: ['operator'] });
    await users.setDisabled('op@example.com', true);
    await expect(users.authenticate('op@example.com', 'a long enough password')).resolves.toBeUndefined();
    await expect(users.setDisabled('root@example.com', true)).rejects.toMatchObject({ code: 'CONFLICT' });
    await expect(users.setRoles('root@example.com', ['viewer'])).rejects.toMatchObject({ code: 'CONFLICT' });
    await users.setRoles('op@example.com', ['admin']);
    await users.setDisabled('op@example.com', false);
    await expect(users.setRoles('root@example.com', ['viewer'])).resolves.toMatchObject({ roles: ['viewer'] });
    await expect(users.setRoles('ghost@example.com', ['viewer'])).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });
});

describe('setup tokens and the first admin', () => {
  const log: string[] = [];
  const options = (env: Record<string, string | undefined>) => {
    const admin = env.CONTEXT_RUNTIME_ADMIN_EMAIL && env.CONTEXT_RUNTIME_ADMIN_PASSWORD ? { email: env.CONTEXT_RUNTIME_ADMIN_EMAIL, password: env.CONTEXT_RUNTIME_ADMIN_PASSWORD } : undefined;
    return { admin, baseUrl: 'http://localhost:3100', log: (line: string) => log.push(line) };
  };

  it('creates the admin from the environment when the table is empty, and does nothing once accounts exist', async () => {
    const env = { CONTEXT_RUNTIME_ADMIN_EMAIL: 'root@example.com', CONTEXT_RUNTIME_ADMIN_PASSWORD: 'a long enough password' };
    await expect(ensureFirstAdmin(users, tokens, options(env))).resolves.toEqual({ kind: 'created-from-env', email: 'root@example.com' });
    await expect(users.findByEmail('root@example.com')).resolves.toMatchObject({ roles: ['admin'] });
    await expect(ensureFirstAdmin(users, tokens, options(env))).resolves.toEqual({ kind: 'existing' });
    await expect(users.count()).resolves.toBe(1);
  });

  it('refuses a weak admin password from the environment rather than creating it', async () => {
    const env = { CONTEXT_RUNTIME_ADMIN_EMAIL: 'root@example.com', CONTEXT_RUNTIME_ADMIN_PASSWORD: 'admin' };
    await expect(ensureFirstAdmin(users, tokens, options(env))).rejects.toMatchObject({ code: 'INVALID_INPUT', field: 'password' });
    await expect(users.count()).resolves.toBe(0);
  });

  it('without env, prints a setup link whose token works once, stores only its hash, and a typo does not burn it', async () => {
    const outcome = await ensureFirstAdmin(users, tokens, options({}));
    expect(outcome.kind).toBe('setup-link');
    const token = new URL((outcome as { url: string }).url).searchParams.get('token')!;
    expect(log.at(-2)).toContain(`http://localhost:3100/setup?token=${token}`);
    const stored = await database.query<{ token_hash: string }>(sql`select token_hash from setup_tokens`);
    expect(stored.map((row) => row.token_hash)).not.toContain(token);

    await expect(completeSetup(users, tokens, { token, email: 'root@example.com', password: 'short' })).rejects.toMatchObject({ field: 'password' });
    await expect(completeSetup(users, tokens, { token: 'forged', email: 'root@example.com', password: 'a long enough password' })).rejects.toMatchObject({ field: 'token' });
    await expect(completeSetup(users, tokens, { token, email: 'root@example.com', password: 'a long enough password' })).resolves.toMatchObject({ roles: ['admin'] });
    // Single use: even were the table empty again, the spent token does nothing.
    await database.exec('delete from users;');
    await expect(completeSetup(users, tokens, { token, email: 'evil@example.com', password: 'a long enough password' })).rejects.toMatchObject({ field: 'token' });
    await expect(users.count()).resolves.toBe(0);
  });

  it('refuses an expired token, and a token once an account exists', async () => {
    const token = await tokens.issue(60);
    await expect(tokens.hasPending()).resolves.toBe(true);
    clock = new Date(clock.getTime() + 61_000);
    await expect(tokens.hasPending()).resolves.toBe(false);
    await expect(completeSetup(users, tokens, { token, email: 'root@example.com', password: 'a long enough password' })).rejects.toMatchObject({ field: 'token' });
    const fresh = await tokens.issue(60);
    await users.create({ email: 'someone@example.com', password: 'a long enough password', roles: ['viewer'] });
    await expect(completeSetup(users, tokens, { token: fresh, email: 'root@example.com', password: 'a long enough password' })).rejects.toMatchObject({ code: 'CONFLICT' });
  });
});

describe('resolvePrincipal', () => {
  const secret = 'a-test-secret-of-enough-length-0123456789';
  const sources = { secret: () => secret, users: async () => users, isServiceToken: (token: string) => token === 'cli-token' };
  const cookieFor = async (email: string, signingSecret = secret) => `other=1; next-auth.session-token=${await encode({ token: { email }, secret: signingSecret })}`;

  it('maps a valid session cookie to the roles the database holds now (a demotion applies at once)', async () => {
    await users.create({ email: 'op@example.com', password: 'a long enough password', roles: ['operator'] });
    const headers = new Headers({ cookie: await cookieFor('op@example.com') });
    await expect(resolvePrincipal(headers, sources)).resolves.toEqual({ user: 'op@example.com', roles: ['operator'] });
    await users.setRoles('op@example.com', ['viewer']);
    await expect(resolvePrincipal(headers, sources)).resolves.toEqual({ user: 'op@example.com', roles: ['viewer'] });
    await users.setDisabled('op@example.com', true);
    await expect(resolvePrincipal(headers, sources)).resolves.toBeUndefined();
  });

  it('refuses a cookie signed with another secret, no cookie, and an unknown bearer; accepts the CLI token', async () => {
    await users.create({ email: 'op@example.com', password: 'a long enough password', roles: ['operator'] });
    await expect(resolvePrincipal(new Headers({ cookie: await cookieFor('op@example.com', 'another-secret-entirely-0123456789') }), sources)).resolves.toBeUndefined();
    await expect(resolvePrincipal(new Headers(), sources)).resolves.toBeUndefined();
    await expect(resolvePrincipal(new Headers({ authorization: 'Bearer guessed' }), sources)).resolves.toBeUndefined();
    await expect(resolvePrincipal(new Headers({ authorization: 'Bearer cli-token' }), sources)).resolves.toEqual(CLI_PRINCIPAL);
  });
});
