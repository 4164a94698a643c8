/**
 * The one place that reads `process.env` (issue 11.5). The server's start (instrumentation.ts),
 * the CLI and the scripts call `serverEnv()` first, so a bad value stops them at once with every
 * offending variable named, instead of surfacing later inside whichever module read it. Modules
 * take typed values from here or from the composition root (server/bootstrap.ts) that passes
 * them down; adapters never read the environment themselves.
 *
 * No `import 'server-only'` here: the CLI and the tsx scripts load this module outside Next.js,
 * where that package throws by design. The Next-facing entry modules carry it instead
 * (server/services/runtime-instance.ts, server/auth/*, server/api/init.ts).
 */
import type { z } from 'zod';
import { ContextRuntimeError } from '../runtime/errors';
import { envSchema, type EnvValues } from './env-schema';

export type EnvironmentSource = Readonly<Record<string, string | undefined>>;

export interface ServerEnv {
  readonly nodeEnv: EnvValues['NODE_ENV'];
  readonly nextRuntime?: EnvValues['NEXT_RUNTIME'];
  /** PORT: the HTTP port (default 3000); written into the data directory's lock for the CLI. */
  readonly port: number;
  readonly databaseUrl?: string;
  /** MIGRATION_DATABASE_URL: a separate owner role for migrations; DATABASE_URL's role is then granted only what the app needs. */
  readonly migrationDatabaseUrl?: string;
  /** CONTEXT_RUNTIME_PASSWORD: the password of the account the CLI decides gates as. */
  readonly cliPassword?: string;
  /** CONTEXT_RUNTIME_API_KEY / CONTEXT_RUNTIME_URL: the CLI acts as this API key against that server. */
  readonly cliApiKey?: string;
  readonly cliServerUrl?: string;
  /** CONTEXT_RUNTIME_DATA_DIR: beats `database.data_dir` of the config, so tests and e2e can point elsewhere. */
  readonly dataDir?: string;
  readonly configPath?: string;
  readonly embeddingsCache?: string;
  /** CONTEXT_RUNTIME_OPENIE_MAX_PASSAGES: passages per ingest (0 turns OpenIE off). */
  readonly openIeMaxPassages?: number;
  readonly debug: boolean;
  readonly admin?: { readonly email: string; readonly password: string };
  readonly oidc?: {
    readonly issuer: string;
    readonly clientId: string;
    readonly clientSecret: string;
    readonly name?: string;
    /** Only these email domains / groups may sign in (lower-case); undefined = no restriction. */
    readonly allowedDomains?: readonly string[];
    readonly allowedGroups?: readonly string[];
    /** The role a first OIDC sign-in gets; 'none' (default) = no access until an admin assigns one. */
    readonly defaultRole: 'none' | 'viewer' | 'operator';
  };
  /** NEXTAUTH_SECRET, else AUTH_SECRET (next-auth's newer name). */
  readonly authSecret?: string;
  readonly nextAuthUrl?: string;
  /** OTEL_EXPORTER_OTLP_ENDPOINT: traces go to this OTLP/HTTP collector (beats observability.otlp.endpoint). */
  readonly otlpEndpoint?: string;
  /** LANGFUSE_BASE_URL: beats observability.langfuse.base_url. The keys are read by the names the config gives. */
  readonly langfuseBaseUrl?: string;
  /** Whether X-Forwarded-Host/-Proto come from a proxy of ours (CONTEXT_RUNTIME_TRUST_PROXY=true) rather than from the client. */
  readonly trustProxy: boolean;
  /**
   * The whole environment, read-only, for names the config file chooses (`api_key_env` of a model
   * tier or of the embeddings) and for child processes (git) that inherit it.
   */
  readonly variables: EnvironmentSource;
}

/** Variables whose value is never echoed back in an error message. */
const SECRET_NAME = /SECRET|PASSWORD|KEY|HEADERS|DATABASE_URL/;

function describeIssue(issue: z.core.$ZodIssue, source: EnvironmentSource): string {
  const name = String(issue.path[0] ?? 'environment');
  const value = source[name];
  const got = value !== undefined && value.trim() !== '' && !SECRET_NAME.test(name) ? `, got "${value}"` : '';
  return `${name} ${issue.message}${got}`;
}

/** Parses and validates `source` (no memo): tests pass their own object. */
export function parseServerEnv(source: EnvironmentSource): ServerEnv {
  const parsed = envSchema.safeParse(source);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => describeIssue(issue, source));
    const variables = parsed.error.issues.map((issue) => String(issue.path[0]));
    throw new ContextRuntimeError('INVALID_CONFIG', `environment: ${problems.join('; ')}`, { field: variables[0], details: { variables } });
  }
  const values = parsed.data;
  return Object.freeze({
    nodeEnv: values.NODE_ENV,
    nextRuntime: values.NEXT_RUNTIME,
    port: values.PORT,
    databaseUrl: values.DATABASE_URL?.trim(),
    migrationDatabaseUrl: values.MIGRATION_DATABASE_URL?.trim(),
    cliPassword: values.CONTEXT_RUNTIME_PASSWORD,
    cliApiKey: values.CONTEXT_RUNTIME_API_KEY?.trim() || undefined,
    cliServerUrl: values.CONTEXT_RUNTIME_URL?.replace(/\/$/, ''),
    dataDir: values.CONTEXT_RUNTIME_DATA_DIR,
    configPath: values.CONTEXT_RUNTIME_CONFIG,
    embeddingsCache: values.CONTEXT_RUNTIME_EMBEDDINGS_CACHE,
    openIeMaxPassages: values.CONTEXT_RUNTIME_OPENIE_MAX_PASSAGES,
    debug: values.CONTEXT_RUNTIME_DEBUG !== undefined,
    admin: values.CONTEXT_RUNTIME_ADMIN_EMAIL && values.CONTEXT_RUNTIME_ADMIN_PASSWORD ? Object.freeze({ email: values.CONTEXT_RUNTIME_ADMIN_EMAIL.trim(), password: values.CONTEXT_RUNTIME_ADMIN_PASSWORD }) : undefined,
    oidc:
      values.CONTEXT_RUNTIME_OIDC_ISSUER && values.CONTEXT_RUNTIME_OIDC_CLIENT_ID && values.CONTEXT_RUNTIME_OIDC_CLIENT_SECRET
        ? Object.freeze({
            issuer: values.CONTEXT_RUNTIME_OIDC_ISSUER.replace(/\/$/, ''),
            clientId: values.CONTEXT_RUNTIME_OIDC_CLIENT_ID,
            clientSecret: values.CONTEXT_RUNTIME_OIDC_CLIENT_SECRET,
            name: values.CONTEXT_RUNTIME_OIDC_NAME,
            allowedDomains: values.CONTEXT_RUNTIME_OIDC_ALLOWED_DOMAINS,
            allowedGroups: values.CONTEXT_RUNTIME_OIDC_ALLOWED_GROUPS,
            defaultRole: values.CONTEXT_RUNTIME_OIDC_DEFAULT_ROLE ?? 'none',
          })
        : undefined,
    authSecret: values.NEXTAUTH_SECRET ?? values.AUTH_SECRET,
    nextAuthUrl: values.NEXTAUTH_URL,
    trustProxy: values.CONTEXT_RUNTIME_TRUST_PROXY === 'true',
    otlpEndpoint: values.OTEL_EXPORTER_OTLP_ENDPOINT?.trim(),
    langfuseBaseUrl: values.LANGFUSE_BASE_URL?.trim().replace(/\/$/, ''),
    variables: Object.freeze({ ...source }),
  });
}

const MEMO_KEY = Symbol.for('context-runtime.server-env');
type MemoHolder = { [MEMO_KEY]?: ServerEnv };

/**
 * The process's environment, parsed once. On globalThis because Next.js gives each route bundle
 * its own module graph; every one of them must see the same values.
 */
export function serverEnv(): ServerEnv {
  const holder = globalThis as MemoHolder;
  return (holder[MEMO_KEY] ??= parseServerEnv(process.env));
}

/** The process environment with some variables replaced or removed, parsed afresh (fixtures, benches). */
export function serverEnvWith(overrides: EnvironmentSource): ServerEnv {
  return parseServerEnv({ ...process.env, ...overrides });
}

/** Forgets the memo, for a test that changed the process environment on purpose. */
export function resetServerEnv(): void {
  delete (globalThis as MemoHolder)[MEMO_KEY];
}

/**
 * Values next-auth reads from the process environment itself (its route helpers, getToken), and
 * proxy.ts reads per request: the persisted signing secret is only known after start, so it is
 * published here rather than parsed.
 */
export function publishForNextAuth(values: { readonly NEXTAUTH_SECRET?: string; readonly AUTH_TRUST_HOST?: string }): void {
  if (values.NEXTAUTH_SECRET !== undefined) process.env.NEXTAUTH_SECRET = values.NEXTAUTH_SECRET;
  if (values.AUTH_TRUST_HOST !== undefined) process.env.AUTH_TRUST_HOST ??= values.AUTH_TRUST_HOST;
}

/** The signing secret as published at start (by the operator or by publishForNextAuth). */
export function publishedAuthSecret(): string | undefined {
  return process.env.NEXTAUTH_SECRET || process.env.AUTH_SECRET || undefined;
}
