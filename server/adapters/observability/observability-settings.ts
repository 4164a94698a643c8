/**
 * Where traces go, resolved once from the config's `observability` section and the environment:
 * the standard variables beat the file (as DATABASE_URL beats `database.url`), and nothing
 * configured means no exporter at all — no tracer, no timer, no network.
 */
import type { RuntimeConfig } from '../../runtime/config/config-schema';
import { ContextRuntimeError } from '../../runtime/errors';
import type { ServerEnv } from '../../config/env';

export interface ObservabilitySettings {
  /** Full URL of the collector's traces endpoint, and headers (an API key) to send with each export. */
  readonly otlp?: { readonly url: string; readonly headers: Readonly<Record<string, string>> };
  readonly langfuse?: { readonly baseUrl: string; readonly publicKey: string; readonly secretKey: string };
}

const LANGFUSE_CLOUD = 'https://cloud.langfuse.com';
const DEFAULT_HEADERS_ENV = 'OTEL_EXPORTER_OTLP_HEADERS';

/** "a=1, b = two" → { a: '1', b: 'two' } (values may hold '='; URL-encoded values are decoded, as the OTel spec says). */
export function parseHeaderList(list: string, field: string): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const entry of list.split(',').filter((part) => part.trim() !== '')) {
    const at = entry.indexOf('=');
    if (at <= 0) throw new ContextRuntimeError('INVALID_CONFIG', `${field}: expected name=value headers separated by commas, got an entry without "="`, { field });
    headers[entry.slice(0, at).trim()] = decodeURIComponent(entry.slice(at + 1).trim());
  }
  return headers;
}

/** OTEL_EXPORTER_OTLP_ENDPOINT is a base URL: the signal path is appended, unless already there. */
export function tracesUrl(endpoint: string): string {
  const base = endpoint.replace(/\/+$/, '');
  return base.endsWith('/v1/traces') ? base : `${base}/v1/traces`;
}

export function resolveObservability(config: RuntimeConfig['observability'], env: Pick<ServerEnv, 'otlpEndpoint' | 'langfuseBaseUrl' | 'variables'>): ObservabilitySettings | undefined {
  const variable = (name: string) => {
    const value = env.variables[name]?.trim();
    return value ? value : undefined;
  };
  const endpoint = env.otlpEndpoint ?? config.otlp?.endpoint;
  const headersEnv = config.otlp?.headers_env ?? DEFAULT_HEADERS_ENV;
  if (config.otlp?.headers_env && !variable(headersEnv)) {
    throw new ContextRuntimeError('INVALID_CONFIG', `observability.otlp.headers_env: the variable ${headersEnv} is not set`, { field: 'observability.otlp.headers_env' });
  }
  const headerList = variable(headersEnv);
  const otlp = endpoint ? { url: tracesUrl(endpoint), headers: headerList ? parseHeaderList(headerList, headersEnv) : {} } : undefined;

  const publicKeyEnv = config.langfuse?.public_key_env ?? 'LANGFUSE_PUBLIC_KEY';
  const secretKeyEnv = config.langfuse?.secret_key_env ?? 'LANGFUSE_SECRET_KEY';
  const publicKey = variable(publicKeyEnv);
  const secretKey = variable(secretKeyEnv);
  if (config.langfuse && (!publicKey || !secretKey)) {
    const missing = [!publicKey ? publicKeyEnv : undefined, !secretKey ? secretKeyEnv : undefined].filter(Boolean).join(' and ');
    throw new ContextRuntimeError('INVALID_CONFIG', `observability.langfuse: set ${missing} (the Langfuse project's API keys)`, { field: !publicKey ? 'observability.langfuse.public_key_env' : 'observability.langfuse.secret_key_env' });
  }
  const langfuse = publicKey && secretKey ? { baseUrl: (env.langfuseBaseUrl ?? config.langfuse?.base_url ?? LANGFUSE_CLOUD).replace(/\/+$/, ''), publicKey, secretKey } : undefined;

  if (!otlp && !langfuse) return undefined;
  return { ...(otlp ? { otlp } : {}), ...(langfuse ? { langfuse } : {}) };
}
