/**
 * The first admin. There is no default password anywhere: with an empty users table the server
 * either creates the admin named by CONTEXT_RUNTIME_ADMIN_EMAIL/_PASSWORD, or prints a one-time
 * setup link to its log, and /setup turns that link into the admin account.
 */
import { ContextRuntimeError } from '../runtime/errors';
import type { SetupTokenStore } from './setup-token-store';
import { normaliseEmail, validatePassword, type UserRecord, type UserStore } from './user-store';

export type FirstAdminOutcome =
  | { readonly kind: 'existing' }
  | { readonly kind: 'created-from-env'; readonly email: string }
  | { readonly kind: 'setup-link'; readonly url: string };

export interface FirstAdminOptions {
  /** CONTEXT_RUNTIME_ADMIN_EMAIL/_PASSWORD as parsed at start (server/config/env.ts). */
  readonly admin?: { readonly email: string; readonly password: string };
  /** Where the link points: NEXTAUTH_URL when set, else http://localhost:<port>. */
  readonly baseUrl: string;
  readonly log: (line: string) => void;
}

export async function ensureFirstAdmin(users: UserStore, tokens: SetupTokenStore, options: FirstAdminOptions): Promise<FirstAdminOutcome> {
  if ((await users.count()) > 0) return { kind: 'existing' };
  if (options.admin) {
    const admin = await users.create({ email: options.admin.email, name: 'Administrator', password: options.admin.password, roles: ['admin'] });
    options.log(`[auth] created the first admin ${admin.email} from CONTEXT_RUNTIME_ADMIN_EMAIL`);
    return { kind: 'created-from-env', email: admin.email };
  }
  const token = await tokens.issue();
  const url = `${options.baseUrl.replace(/\/$/, '')}/setup?token=${token}`;
  options.log(`[auth] no accounts yet. Create the first admin within 24 hours at: ${url}`);
  options.log('[auth] (or restart with CONTEXT_RUNTIME_ADMIN_EMAIL and CONTEXT_RUNTIME_ADMIN_PASSWORD set)');
  return { kind: 'setup-link', url };
}

/** /setup: validates first (a typo must not burn the link), then spends the token, then creates the admin. */
export async function completeSetup(
  users: UserStore,
  tokens: SetupTokenStore,
  input: { readonly token: string; readonly email: string; readonly name?: string; readonly password: string },
): Promise<UserRecord> {
  normaliseEmail(input.email);
  validatePassword(input.password);
  if ((await users.count()) > 0) throw new ContextRuntimeError('CONFLICT', 'setup is already complete; sign in instead');
  if (!(await tokens.consume(input.token))) {
    throw new ContextRuntimeError('INVALID_INPUT', 'token: this setup link is unknown, used or expired; restart the server for a new one', { field: 'token' });
  }
  return users.create({ email: input.email, name: input.name, password: input.password, roles: ['admin'] });
}
