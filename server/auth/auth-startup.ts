/**
 * Sign-in's part of server start (instrumentation.ts, after the runtime opened): pin the signing
 * secret, hand the CLI a fresh service token, and make sure an admin exists or can be created.
 */
import 'server-only';
import { publishForNextAuth, serverEnv } from '../config/env';
import { accounts, authSecret, hasServiceToken, serverDataDir, setServiceToken } from './auth-services';
import { ensureFirstAdmin, type FirstAdminOutcome } from './first-admin';
import { issueServiceToken } from './local-secrets';
import { ContextRuntimeError } from '../runtime/errors';
import { holdsDataDir } from '../services/data-dir-lock';

/** The signing secret and the CLI's service token: they need the data directory, not the database. */
function startLocalSecrets(): void {
  // Only the process holding the data directory writes beside it: a second server refused the lock
  // once rewrote the token file, and the CLI was refused by the healthy server (issue 13).
  if (!holdsDataDir(serverDataDir())) {
    throw new ContextRuntimeError('DATA_DIR_LOCKED', `this process does not hold the lock on ${serverDataDir()}: it writes no secrets there`);
  }
  authSecret();
  if (!serverEnv().nextAuthUrl) publishForNextAuth({ AUTH_TRUST_HOST: 'true' });
  // Once per process, not per retry: while the runtime cannot open, each request retries startAuth,
  // and a rotating token would refuse the CLI that read the file a moment earlier.
  if (!hasServiceToken()) setServiceToken(issueServiceToken(serverDataDir()));
}

/**
 * For a server whose runtime failed to open at start: if this process still owns the data
 * directory (it claims it before opening), the CLI will come here rather than open the database,
 * so it gets its token now and hears the server's reason instead of "sign in required".
 */
export function startLocalSecretsIfOwner(): void {
  if (!holdsDataDir(serverDataDir())) return;
  try {
    startLocalSecrets();
  } catch (error) {
    console.error(`[auth] could not write the local secrets: ${error instanceof Error ? error.message : String(error)}`);
  }
}

export async function startAuth(options: { readonly port: number; readonly log?: (line: string) => void }): Promise<FirstAdminOutcome> {
  const log = options.log ?? ((line: string) => console.log(line));
  startLocalSecrets();
  const { users, setupTokens } = await accounts();
  const env = serverEnv();
  const baseUrl = env.nextAuthUrl || `http://localhost:${options.port}`;
  return ensureFirstAdmin(users, setupTokens, { admin: env.admin, baseUrl, log });
}

const STARTED_KEY = Symbol.for('context-runtime.auth-started');
type StartedHolder = { [STARTED_KEY]?: Promise<FirstAdminOutcome | undefined> };

/**
 * startAuth once per process. instrumentation.ts calls it after the runtime opens; the API calls it
 * too, so a server whose runtime failed to open at start (a lock still held by a dying process)
 * still gets its service token and first admin once a later request opens the runtime.
 */
export function ensureAuthStarted(port: number = serverEnv().port): Promise<FirstAdminOutcome | undefined> {
  const holder = globalThis as StartedHolder;
  const existing = holder[STARTED_KEY];
  if (existing) return existing;
  const starting = startAuth({ port }).catch((error: unknown) => {
    // Not cached: the next request retries (the usual cause is the runtime not opening yet).
    if (holder[STARTED_KEY] === starting) delete holder[STARTED_KEY];
    console.error(`[auth] sign-in setup failed: ${error instanceof Error ? error.message : String(error)}`);
    return undefined;
  });
  holder[STARTED_KEY] = starting;
  return starting;
}
