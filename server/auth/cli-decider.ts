/**
 * Who decides a gate from the command line. The CLI's service token proves shell access to the
 * server, not who is at the terminal; a free-text `--by` let anyone there record any name as the
 * approver (issue 12, finding 7). So the CLI decides as an account: `--by EMAIL` and that account's
 * password (CONTEXT_RUNTIME_PASSWORD), checked like a sign-in, and the account's own roles then
 * face the same gate rules as in the browser.
 */
import { ContextRuntimeError, invalidInput } from '../runtime/errors';
import type { Principal } from '../runtime/types';
import type { UserStore } from './user-store';

export interface CliCredentials {
  readonly by?: string;
  readonly password?: string;
}

export async function cliDecider(users: UserStore, credentials: CliCredentials): Promise<Principal> {
  const by = credentials.by?.trim() ?? '';
  if (by === '') throw invalidInput('by', 'the CLI decides as an account: pass --by EMAIL and that account\'s password in CONTEXT_RUNTIME_PASSWORD');
  if (!credentials.password) throw invalidInput('password', `set CONTEXT_RUNTIME_PASSWORD to the password of ${by} (the CLI decides only as a signed-in account)`);
  const user = await users.authenticate(by, credentials.password);
  if (!user) throw new ContextRuntimeError('FORBIDDEN', `${by}: wrong email or password, or the account is disabled`, { field: 'by' });
  return Object.freeze({ user: user.email, roles: user.roles });
}
