/**
 * Who is calling the API, decided once per request: the CLI's bearer service token, or the
 * NextAuth session cookie. Roles come from the users table on every request, not from the cookie,
 * so demoting or disabling someone takes effect on their next call without waiting for the JWT
 * (12 h) to expire; the cost is one indexed lookup per request.
 */
import { decode } from 'next-auth/jwt';
import type { Principal } from '../runtime/types';
import { type ApiKeyStore, principalOfKey } from './api-key-store';
import type { UserStore } from './user-store';

export const CLI_PRINCIPAL: Principal = Object.freeze({ user: 'cli@local', roles: Object.freeze(['admin']) });

/** next-auth's cookie names: the __Secure- prefix is used when NEXTAUTH_URL is https. */
const SESSION_COOKIES = ['__Secure-next-auth.session-token', 'next-auth.session-token'] as const;

export interface PrincipalSources {
  readonly secret: () => string;
  readonly users: () => Promise<UserStore>;
  readonly isServiceToken: (token: string) => boolean;
  /** API keys an admin created (auth/api-key-store.ts); absent = bearer means the service token only. */
  readonly apiKeys?: () => Promise<ApiKeyStore>;
}

export function parseCookies(header: string | null): ReadonlyMap<string, string> {
  const cookies = new Map<string, string>();
  for (const part of (header ?? '').split(';')) {
    const separator = part.indexOf('=');
    if (separator <= 0) continue;
    const value = part.slice(separator + 1).trim();
    try {
      cookies.set(part.slice(0, separator).trim(), decodeURIComponent(value));
    } catch {
      cookies.set(part.slice(0, separator).trim(), value);
    }
  }
  return cookies;
}

/** The session JWT: whole, or reassembled from next-auth's `.0`, `.1`, … chunks when it exceeded 4 KB. */
export function sessionTokenOf(cookies: ReadonlyMap<string, string>): string | undefined {
  for (const name of SESSION_COOKIES) {
    const whole = cookies.get(name);
    if (whole) return whole;
    const chunks: string[] = [];
    for (let index = 0; cookies.has(`${name}.${index}`); index += 1) chunks.push(cookies.get(`${name}.${index}`)!);
    if (chunks.length > 0) return chunks.join('');
  }
  return undefined;
}

/** The email a valid session cookie names, or undefined (no cookie, bad signature, expired). */
export async function sessionEmail(cookieHeader: string | null, secret: string): Promise<string | undefined> {
  const token = sessionTokenOf(parseCookies(cookieHeader));
  if (!token) return undefined;
  try {
    const payload = await decode({ token, secret });
    return typeof payload?.email === 'string' ? payload.email : undefined;
  } catch {
    return undefined;
  }
}

export async function resolvePrincipal(headers: Headers, sources: PrincipalSources): Promise<Principal | undefined> {
  const authorization = headers.get('authorization');
  if (authorization) {
    // A bearer that does not match is refused outright rather than falling back to the cookie.
    const match = /^Bearer\s+(\S+)$/i.exec(authorization);
    if (!match) return undefined;
    if (sources.isServiceToken(match[1]!)) return CLI_PRINCIPAL;
    const key = sources.apiKeys ? await (await sources.apiKeys()).resolve(match[1]!) : undefined;
    return key ? principalOfKey(key) : undefined;
  }
  const email = await sessionEmail(headers.get('cookie'), sources.secret());
  if (!email) return undefined;
  const user = await (await sources.users()).findByEmail(email);
  if (!user || user.disabled || user.roles.length === 0) return undefined;
  return Object.freeze({ user: user.email, roles: user.roles });
}
