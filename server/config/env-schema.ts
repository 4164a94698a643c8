/**
 * Every environment variable the product reads by a fixed name, as one zod schema (issue 11.5).
 * Values arrive as strings; an empty or blank value counts as unset, as `VAR= npm start` means
 * "not set" to an operator. Messages complete the sentence "<VARIABLE> …" (see env.ts).
 */
import { z } from 'zod';
import { MIN_PASSWORD_LENGTH } from '../auth/password-policy';

/** Blank → undefined, so `optional()` and defaults apply to it. */
const unsetIfBlank = (value: unknown) => (typeof value === 'string' && value.trim() === '' ? undefined : value);
const optional = <T extends z.ZodType>(schema: T) => z.preprocess(unsetIfBlank, schema.optional());

const text = z.string();

function wholeNumber(min: number, max: number) {
  const expected = `must be a whole number from ${min} to ${max}`;
  return z
    .string()
    .regex(/^\s*\d+\s*$/, { error: expected })
    .transform(Number)
    .refine((value) => value >= min && value <= max, { error: expected });
}

function webUrl(what: string) {
  return z.string().refine((value) => URL.canParse(value) && /^https?:$/.test(new URL(value).protocol), { error: `must be an http(s) URL (${what})` });
}

/** "a, b,c" → ['a', 'b', 'c']; an empty entry is refused rather than silently matching nothing. */
function nameList(example: string) {
  return z
    .string()
    .transform((value) => value.split(',').map((entry) => entry.trim().toLowerCase()))
    .refine((entries) => entries.every((entry) => /^[^\s,]+$/.test(entry)), { error: `must be a comma-separated list of ${example}` });
}

const postgresUrl = z
  .string()
  .refine((value) => URL.canParse(value) && /^postgres(ql)?:$/.test(new URL(value).protocol), { error: 'must be a postgres:// or postgresql:// connection URL' });

/** "name=value,name2=value2", as OpenTelemetry's exporters read OTEL_EXPORTER_OTLP_HEADERS. */
export const headerList = z.string().refine((value) => value.split(',').every((entry) => /^\s*[^\s=,]+\s*=.*$/.test(entry)), {
  error: 'must be a comma-separated list of name=value headers, e.g. x-api-key=abc123',
});

const email = z.string().refine((value) => /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value.trim()), { error: 'must be an email address such as admin@example.com' });

export const envSchema = z
  .object({
    NODE_ENV: z.preprocess(unsetIfBlank, z.enum(['development', 'production', 'test'], { error: 'must be development, production or test' }).default('development')),
    /** Set by Next.js in each of its runtimes; unset under the CLI, tsx and vitest. */
    NEXT_RUNTIME: optional(z.enum(['nodejs', 'edge'], { error: 'must be nodejs or edge' })),
    PORT: z.preprocess(unsetIfBlank, wholeNumber(1, 65_535).default(3000)),
    DATABASE_URL: optional(postgresUrl),
    /** The role that owns the schema and runs migrations; DATABASE_URL's role then gets only the privileges it needs (db/application-grants.ts). */
    MIGRATION_DATABASE_URL: optional(postgresUrl),
    /** The password of the account `context-runtime approve --by EMAIL` decides as. */
    CONTEXT_RUNTIME_PASSWORD: optional(text),
    /** An API key (Admin → API keys): the CLI then talks to the server at CONTEXT_RUNTIME_URL as that key. */
    CONTEXT_RUNTIME_API_KEY: optional(text),
    CONTEXT_RUNTIME_URL: optional(webUrl('the server the CLI reaches with an API key, e.g. http://127.0.0.1:3000')),
    CONTEXT_RUNTIME_DATA_DIR: optional(text),
    CONTEXT_RUNTIME_CONFIG: optional(text),
    CONTEXT_RUNTIME_EMBEDDINGS_CACHE: optional(text),
    CONTEXT_RUNTIME_OPENIE_MAX_PASSAGES: optional(wholeNumber(0, 1_000_000)),
    CONTEXT_RUNTIME_DEBUG: optional(text),
    CONTEXT_RUNTIME_ADMIN_EMAIL: optional(email),
    CONTEXT_RUNTIME_ADMIN_PASSWORD: optional(z.string().min(MIN_PASSWORD_LENGTH, { error: `must be at least ${MIN_PASSWORD_LENGTH} characters` })),
    CONTEXT_RUNTIME_OIDC_ISSUER: optional(webUrl('the identity provider, e.g. https://login.example.com/realms/main')),
    CONTEXT_RUNTIME_OIDC_CLIENT_ID: optional(text),
    CONTEXT_RUNTIME_OIDC_CLIENT_SECRET: optional(text),
    CONTEXT_RUNTIME_OIDC_NAME: optional(text),
    CONTEXT_RUNTIME_OIDC_ALLOWED_DOMAINS: optional(nameList('email domains, e.g. example.com,example.org')),
    CONTEXT_RUNTIME_OIDC_ALLOWED_GROUPS: optional(nameList('group names from the groups claim, e.g. sre,platform')),
    CONTEXT_RUNTIME_OIDC_DEFAULT_ROLE: optional(z.enum(['none', 'viewer', 'operator'], { error: 'must be none, viewer or operator (higher roles are granted by an admin)' })),
    NEXTAUTH_SECRET: optional(text),
    AUTH_SECRET: optional(text),
    NEXTAUTH_URL: optional(webUrl('where browsers reach this server, e.g. https://context.example.com')),
    /** "true" behind a reverse proxy that sets X-Forwarded-Host/-Proto itself; otherwise a client could send them. */
    CONTEXT_RUNTIME_TRUST_PROXY: optional(z.enum(['true', 'false'], { error: 'must be true or false' })),
    /** OpenTelemetry's standard names: a collector's base URL (…/v1/traces appended) and "name=value,…" headers. */
    OTEL_EXPORTER_OTLP_ENDPOINT: optional(webUrl('an OTLP/HTTP collector, e.g. http://localhost:4318')),
    OTEL_EXPORTER_OTLP_HEADERS: optional(headerList),
    LANGFUSE_PUBLIC_KEY: optional(text),
    LANGFUSE_SECRET_KEY: optional(text),
    LANGFUSE_BASE_URL: optional(webUrl('a Langfuse instance, e.g. https://cloud.langfuse.com')),
    OPENAI_API_KEY: optional(text),
    ANTHROPIC_API_KEY: optional(text),
  })
  .superRefine((values, context) => {
    // Half a setting used to be ignored without a word (single sign-on silently off, the setup
    // link printed instead of the admin created); an operator who set one meant all of them.
    const oidc = ['CONTEXT_RUNTIME_OIDC_ISSUER', 'CONTEXT_RUNTIME_OIDC_CLIENT_ID', 'CONTEXT_RUNTIME_OIDC_CLIENT_SECRET'] as const;
    requireTogether(values, context, oidc, 'single sign-on');
    requireTogether(values, context, ['CONTEXT_RUNTIME_ADMIN_EMAIL', 'CONTEXT_RUNTIME_ADMIN_PASSWORD'], 'the first admin');
    requireTogether(values, context, ['LANGFUSE_PUBLIC_KEY', 'LANGFUSE_SECRET_KEY'], 'tracing to Langfuse');
    if (values.MIGRATION_DATABASE_URL !== undefined && values.DATABASE_URL === undefined) {
      context.addIssue({ code: 'custom', path: ['DATABASE_URL'], message: 'must be set too, since MIGRATION_DATABASE_URL is (the application connects as DATABASE_URL\'s role, migrations as MIGRATION_DATABASE_URL\'s)' });
    }
  });

type Values = Record<string, unknown>;

function requireTogether(values: Values, context: z.RefinementCtx, names: readonly string[], purpose: string): void {
  const set = names.filter((name) => values[name] !== undefined);
  if (set.length === 0 || set.length === names.length) return;
  for (const name of names.filter((candidate) => values[candidate] === undefined)) {
    context.addIssue({ code: 'custom', path: [name], message: `must be set too, since ${set.join(' and ')} ${set.length > 1 ? 'are' : 'is'} (${purpose} needs ${names.join(', ')})` });
  }
}

export type EnvValues = z.output<typeof envSchema>;
