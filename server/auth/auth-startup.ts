/**
 * Sign-in's part of server start (instrumentation.ts, after the runtime opened): pin the signing
 * secret, hand the CLI a fresh service token, and make sure an admin exists or can be created.
 */
import { accounts, authSecret, serverDataDir, setServiceToken } from './auth-services';
import { ensureFirstAdmin, type FirstAdminOutcome } from './first-admin';
import { issueServiceToken } from './local-secrets';

export async function startAuth(options: { readonly port: number; readonly log?: (line: string) => void }): Promise<FirstAdminOutcome> {
  const log = options.log ?? ((line: string) => console.log(line));
  authSecret();
  if (!process.env.NEXTAUTH_URL) process.env.AUTH_TRUST_HOST ??= 'true';
  setServiceToken(issueServiceToken(serverDataDir()));
  const { users, setupTokens } = await accounts();
  const baseUrl = process.env.NEXTAUTH_URL || `http://localhost:${options.port}`;
  return ensureFirstAdmin(users, setupTokens, { env: process.env, baseUrl, log });
}
