/**
 * Issue 12, finding 4, through next-auth 4's real OAuth flow against a loopback OpenID provider:
 * csrf → sign-in redirect (state + PKCE) → the provider's token endpoint → ID token checked by
 * openid-client → our signIn/jwt callbacks → a session cookie, or a refusal. On the old code an ID
 * token with an unverified `email` naming the admin came back with the admin's session.
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import type { AuthOptions } from 'next-auth';
import { decode } from 'next-auth/jwt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, openDatabase } from '../../db/client';
import { migrateDatabase } from '../../db/migrate';
import { parseServerEnv } from '../config/env';
import { startLoopbackOidcProvider, type LoopbackOidcProvider } from '../testing/loopback-oidc-provider';
import { oidcCallbacks, oidcProvider } from './auth-options';
import { UserStore } from './user-store';

interface InternalResponse {
  readonly status?: number;
  readonly body?: unknown;
  readonly redirect?: string;
  readonly cookies?: readonly { readonly name: string; readonly value: string }[];
}
type AuthHandlerFn = (params: { req: Record<string, unknown>; options: AuthOptions }) => Promise<InternalResponse>;

// next-auth's framework-free core (what its Next.js route wraps); its package exports leave it out,
// so it is loaded by file — the route handler itself needs a live Next.js request scope.
const nextAuthEntry = createRequire(import.meta.url).resolve('next-auth');
const { AuthHandler } = createRequire(import.meta.url)(path.join(path.dirname(nextAuthEntry), 'core', 'index.js')) as { AuthHandler: AuthHandlerFn };

const SECRET = 'loopback-oidc-test-secret';
const ORIGIN = 'http://localhost:3000';
let provider: LoopbackOidcProvider;
let database: Database;
let users: UserStore;
let options: AuthOptions;

/** One browser's sign-in: returns the email the session cookie names, or the error page it was sent to. */
async function signInThroughProvider(claims: Record<string, unknown> & { sub: string }): Promise<{ email?: string; error?: string }> {
  const jar: Record<string, string> = {};
  const call = async (req: Record<string, unknown>) => {
    const response = await AuthHandler({ req: { origin: ORIGIN, headers: {}, query: {}, body: {}, cookies: { ...jar }, ...req }, options });
    for (const cookie of response.cookies ?? []) jar[cookie.name] = cookie.value;
    return response;
  };
  const csrf = await call({ action: 'csrf', method: 'GET' });
  const { csrfToken } = csrf.body as { csrfToken: string };
  const started = await call({ action: 'signin', providerId: 'oidc', method: 'POST', body: { csrfToken, callbackUrl: `${ORIGIN}/` } });
  const authorize = new URL(started.redirect!);
  expect(authorize.origin + authorize.pathname).toBe(`${provider.issuer}/authorize`);
  expect(authorize.searchParams.get('code_challenge_method')).toBe('S256');
  const code = provider.issueCode(claims);
  const done = await call({ action: 'callback', providerId: 'oidc', method: 'GET', query: { code, state: authorize.searchParams.get('state') } });
  const sessionToken = jar['next-auth.session-token'];
  if (!sessionToken) return { error: new URL(done.redirect!, ORIGIN).searchParams.get('error') ?? done.redirect };
  const payload = await decode({ token: sessionToken, secret: SECRET });
  return { email: payload?.email as string | undefined };
}

beforeAll(async () => {
  provider = await startLoopbackOidcProvider();
  database = await openDatabase({ dataDir: 'memory://' });
  await migrateDatabase(database);
  users = new UserStore(database);
  await users.create({ email: 'admin@example.com', password: 'correct horse battery', roles: ['admin'] });
  const settings = parseServerEnv({
    CONTEXT_RUNTIME_OIDC_ISSUER: provider.issuer,
    CONTEXT_RUNTIME_OIDC_CLIENT_ID: provider.clientId,
    CONTEXT_RUNTIME_OIDC_CLIENT_SECRET: provider.clientSecret,
  }).oidc!;
  options = { secret: SECRET, session: { strategy: 'jwt' }, pages: { signIn: '/signin', error: '/signin' }, providers: [oidcProvider(settings)!], callbacks: oidcCallbacks(settings, async () => users) };
});

afterAll(async () => {
  await database?.close();
  await provider?.close();
});

describe('OIDC sign-in through a loopback provider', () => {
  it("refuses an ID token whose email is unverified, though it names the admin's address", async () => {
    expect(await signInThroughProvider({ sub: 'attacker', email: 'admin@example.com', email_verified: false })).toEqual({ error: 'AccessDenied' });
    expect(await signInThroughProvider({ sub: 'attacker', email: 'admin@example.com' })).toEqual({ error: 'AccessDenied' });
    // The flow really ran: the provider was asked for tokens, with the PKCE verifier.
    expect(provider.tokenRequests.length).toBe(2);
    expect(provider.tokenRequests.every((request) => (request.codeVerifier ?? '').length >= 43)).toBe(true);
    expect((await users.findByEmail('admin@example.com'))!.oidc).toBeUndefined();
  });

  it('signs a new verified user in with no role, known afterwards by issuer + subject', async () => {
    expect(await signInThroughProvider({ sub: 'u-1', email: 'Newcomer@Example.com', email_verified: true, name: 'New Comer' })).toEqual({ email: 'newcomer@example.com' });
    expect(await users.findByEmail('newcomer@example.com')).toMatchObject({ roles: [], oidc: { issuer: provider.issuer, subject: 'u-1' } });
    // Same subject, now claiming the admin's (verified) address: still the newcomer's own account.
    expect(await signInThroughProvider({ sub: 'u-1', email: 'admin@example.com', email_verified: true })).toEqual({ email: 'newcomer@example.com' });
  });
});
