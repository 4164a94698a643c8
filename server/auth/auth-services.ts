/**
 * Where sign-in finds its collaborators at request time: the accounts (in the runtime's database,
 * opening the runtime if this request is the first), the signing secret and the CLI service token.
 */
import 'server-only';
import { timingSafeEqual } from 'node:crypto';
import { defaultConfigPath, embeddedDataDir } from '../bootstrap';
import { publishedAuthSecret, publishForNextAuth, serverEnv } from '../config/env';
import { loadConfigFile } from '../runtime/config/load-config';
import { ContextRuntimeError } from '../runtime/errors';
import { getRuntime } from '../services/runtime-instance';
import type { Accounts } from './accounts';
import { registeredAuthDatabase } from './auth-database-holder';
import { persistedAuthSecret } from './local-secrets';
import { ApiKeyStore } from './api-key-store';
import { SetupTokenStore } from './setup-token-store';
import { SignInThrottle } from './sign-in-throttle';
import { UserStore } from './user-store';

const SERVICE_TOKEN_KEY = Symbol.for('context-runtime.service-token');
const THROTTLE_KEY = Symbol.for('context-runtime.sign-in-throttle');
type TokenHolder = { [SERVICE_TOKEN_KEY]?: string };

/** The embedded data directory the server uses (also where its local secrets live). */
export function serverDataDir(): string {
  const configPath = defaultConfigPath();
  return embeddedDataDir(loadConfigFile(configPath ?? 'context-runtime.yaml', { required: false }));
}

export async function userStore(): Promise<UserStore> {
  return new UserStore(await authDatabase());
}

export async function accounts(): Promise<Accounts> {
  const database = await authDatabase();
  return Object.freeze({ users: new UserStore(database), setupTokens: new SetupTokenStore(database), apiKeys: new ApiKeyStore(database) });
}

export async function apiKeyStore(): Promise<ApiKeyStore> {
  return new ApiKeyStore(await authDatabase());
}

async function authDatabase() {
  if (!registeredAuthDatabase()) await getRuntime();
  const database = registeredAuthDatabase();
  if (!database) throw new ContextRuntimeError('INTERNAL', 'the runtime opened without registering its database for sign-in');
  return database;
}

/** The process's one sign-in throttle (on globalThis: each Next.js route bundle has its own module graph), with the config's limits. */
export async function signInThrottle(): Promise<SignInThrottle> {
  const holder = globalThis as { [THROTTLE_KEY]?: SignInThrottle };
  if (holder[THROTTLE_KEY]) return holder[THROTTLE_KEY];
  const { limits } = (await getRuntime()).config;
  return (holder[THROTTLE_KEY] ??= new SignInThrottle(limits.sign_in));
}

/**
 * NEXTAUTH_SECRET (or AUTH_SECRET) when set; otherwise the one persisted beside the data directory.
 * Published to the process environment so next-auth's own helpers and proxy.ts see the same value.
 */
export function authSecret(): string {
  // After the first call the persisted secret is published, so later calls skip the file.
  const fromEnv = serverEnv().authSecret ?? publishedAuthSecret();
  if (fromEnv) return fromEnv;
  const secret = persistedAuthSecret(serverDataDir());
  publishForNextAuth({ NEXTAUTH_SECRET: secret });
  return secret;
}

/** Set once per start by auth-startup.ts; the tRPC handler compares bearer tokens against it. */
export function setServiceToken(token: string | undefined): void {
  (globalThis as TokenHolder)[SERVICE_TOKEN_KEY] = token;
}

export function hasServiceToken(): boolean {
  return Boolean((globalThis as TokenHolder)[SERVICE_TOKEN_KEY]);
}

export function isServiceToken(candidate: string): boolean {
  const expected = (globalThis as TokenHolder)[SERVICE_TOKEN_KEY];
  if (!expected) return false;
  const left = Buffer.from(candidate);
  const right = Buffer.from(expected);
  return left.length === right.length && timingSafeEqual(left, right);
}
