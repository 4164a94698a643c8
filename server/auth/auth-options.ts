/**
 * NextAuth (v4) configuration: email + password against the users table, and an OIDC provider
 * when CONTEXT_RUNTIME_OIDC_ISSUER/_CLIENT_ID/_CLIENT_SECRET are all set. Sessions are JWTs that
 * carry only who signed in; roles are read from the database whenever they are used
 * (request-principal.ts for the API, the session callback for the header).
 */
import 'server-only';
import type { NextAuthOptions, Session } from 'next-auth';
import type { JWT } from 'next-auth/jwt';
import CredentialsProvider from 'next-auth/providers/credentials';
import type { OAuthConfig } from 'next-auth/providers/oauth';
import { publishForNextAuth, serverEnv, type ServerEnv } from '../config/env';
import { authSecret, signInThrottle, userStore } from './auth-services';
import { clientAddressOf, throttledAuthenticate } from './sign-in-throttle';
import { admitOidcSignIn, type OidcAdmissionPolicy, type OidcClaims } from './oidc-admission';
import type { Role } from './roles';
import type { UserStore } from './user-store';

export const OIDC_PROVIDER_ID = 'oidc';
const SESSION_MAX_AGE_SECONDS = 12 * 60 * 60;

export interface SessionUser {
  readonly email: string;
  readonly name: string;
  readonly roles: readonly Role[];
}

type OidcProfile = OidcClaims & { readonly sub: string };

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

type Callbacks = NonNullable<NextAuthOptions['callbacks']>;

/**
 * The sign-in rules for OIDC (oidc-admission.ts) as next-auth callbacks: `signIn` admits or refuses
 * on the provider's claims, `jwt` keys the session on the email of the account the identity
 * (issuer + subject) is linked to — not on whatever email the claims carry this time.
 */
export function oidcCallbacks(oidc: NonNullable<ServerEnv['oidc']>, users: () => Promise<UserStore>): Pick<Callbacks, 'signIn' | 'jwt'> {
  const policy: OidcAdmissionPolicy = { issuer: oidc.issuer, allowedDomains: oidc.allowedDomains, allowedGroups: oidc.allowedGroups, defaultRole: oidc.defaultRole };
  return {
    signIn: async ({ account, profile }) => {
      if (account?.provider !== OIDC_PROVIDER_ID) return true;
      const admission = await admitOidcSignIn(await users(), (profile ?? {}) as OidcClaims, policy);
      if (!admission.admitted) console.warn(`[auth] single sign-on refused for subject ${account.providerAccountId}: ${admission.reason}`);
      return admission.admitted;
    },
    jwt: async ({ token, user, account }) => {
      if (account?.provider === OIDC_PROVIDER_ID) {
        const linked = await (await users()).findByIdentity({ issuer: oidc.issuer, subject: account.providerAccountId });
        // signIn admitted and linked it a moment ago; without it the token names nobody.
        token.email = linked?.email;
        return token;
      }
      return credentialsJwt({ token, user });
    },
  };
}

/** A password sign-in: the session names the account that authorize() returned. */
const credentialsJwt = ({ token, user }: { token: JWT; user?: { email?: string | null } }) => {
  if (user?.email) token.email = user.email.toLowerCase();
  return token;
};

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
        authorize: async (credentials, request) => {
          const users = await userStore();
          // A locked-out account or address throws RATE_LIMITED; next-auth hands its message to the form.
          const user = await throttledAuthenticate(await signInThrottle(), (email, password) => users.authenticate(email, password), credentials?.email ?? '', credentials?.password ?? '', clientAddressOf(request?.headers));
          return user ? { id: user.id, email: user.email, name: user.name } : null;
        },
      }),
      ...(oidc ? [oidc] : []),
    ],
    callbacks: {
      ...(oidc ? oidcCallbacks(serverEnv().oidc!, userStore) : { jwt: credentialsJwt }),
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
