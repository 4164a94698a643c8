/**
 * NextAuth (v4) configuration: email + password against the users table, and an OIDC provider
 * when CONTEXT_RUNTIME_OIDC_ISSUER/_CLIENT_ID/_CLIENT_SECRET are all set. Sessions are JWTs that
 * carry only who signed in; roles are read from the database whenever they are used
 * (request-principal.ts for the API, the session callback for the header).
 */
import 'server-only';
import type { NextAuthOptions, Session } from 'next-auth';
import CredentialsProvider from 'next-auth/providers/credentials';
import type { OAuthConfig } from 'next-auth/providers/oauth';
import { publishForNextAuth, serverEnv, type ServerEnv } from '../config/env';
import { accounts, authSecret, userStore } from './auth-services';
import type { Role } from './roles';

export const OIDC_PROVIDER_ID = 'oidc';
const SESSION_MAX_AGE_SECONDS = 12 * 60 * 60;

export interface SessionUser {
  readonly email: string;
  readonly name: string;
  readonly roles: readonly Role[];
}

interface OidcProfile {
  readonly sub: string;
  readonly email?: string;
  readonly name?: string;
  readonly preferred_username?: string;
}

/** The OIDC provider, or undefined unless all three settings are present (env.ts refuses a partial set). */
export function oidcProvider(oidc: ServerEnv['oidc'] = serverEnv().oidc): OAuthConfig<OidcProfile> | undefined {
  if (!oidc) return undefined;
  const { issuer, clientId, clientSecret } = oidc;
  return {
    id: OIDC_PROVIDER_ID,
    name: oidc.name || 'Single sign-on',
    type: 'oauth',
    wellKnown: `${issuer}/.well-known/openid-configuration`,
    authorization: { params: { scope: 'openid email profile' } },
    idToken: true,
    checks: ['pkce', 'state'],
    clientId,
    clientSecret,
    profile: (profile) => ({ id: profile.sub, email: profile.email ?? null, name: profile.name ?? profile.preferred_username ?? null }),
  };
}

/** An OIDC user's first sign-in creates their account as a viewer; a disabled account is refused. */
async function admitOidcUser(email: string | null | undefined, name: string | null | undefined): Promise<boolean> {
  if (!email) return false;
  const { users } = await accounts();
  const existing = await users.findByEmail(email);
  if (existing) return !existing.disabled;
  await users.create({ email, name: name ?? '', roles: ['viewer'] }).catch(async (error: unknown) => {
    // Two first sign-ins at once: the other created it, which is the outcome wanted.
    if (!(await users.findByEmail(email))) throw error;
  });
  return true;
}

export function authOptions(): NextAuthOptions {
  // Without NEXTAUTH_URL, trust the Host header so one build serves any port (3000, 3100, …).
  if (!serverEnv().nextAuthUrl) publishForNextAuth({ AUTH_TRUST_HOST: 'true' });
  const oidc = oidcProvider();
  return {
    secret: authSecret(),
    session: { strategy: 'jwt', maxAge: SESSION_MAX_AGE_SECONDS },
    pages: { signIn: '/signin', error: '/signin' },
    providers: [
      CredentialsProvider({
        id: 'credentials',
        name: 'Email and password',
        credentials: { email: { label: 'Email', type: 'email' }, password: { label: 'Password', type: 'password' } },
        authorize: async (credentials) => {
          const user = await (await userStore()).authenticate(credentials?.email ?? '', credentials?.password ?? '');
          return user ? { id: user.id, email: user.email, name: user.name } : null;
        },
      }),
      ...(oidc ? [oidc] : []),
    ],
    callbacks: {
      signIn: async ({ user, account }) => (account?.provider === OIDC_PROVIDER_ID ? admitOidcUser(user.email, user.name) : true),
      jwt: ({ token, user }) => {
        if (user?.email) token.email = user.email.toLowerCase();
        return token;
      },
      session: async ({ session, token }) => {
        const record = typeof token.email === 'string' ? await (await userStore()).findByEmail(token.email) : undefined;
        // A deleted or disabled account reads as signed out, even with an unexpired cookie.
        if (!record || record.disabled) return { expires: session.expires } as Session;
        const user: SessionUser = { email: record.email, name: record.name, roles: record.roles };
        return { ...session, user } as Session;
      },
    },
  };
}

/** The signed-in user of a server component, with roles as the database has them now. */
export function sessionUserOf(session: Session | null): SessionUser | undefined {
  const user = session?.user as Partial<SessionUser> | undefined;
  return user?.email && Array.isArray(user.roles) ? (user as SessionUser) : undefined;
}
