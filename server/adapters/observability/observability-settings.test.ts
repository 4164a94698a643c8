import { describe, expect, it } from 'vitest';
import { configSchema } from '../../runtime/config/config-schema';
import { parseServerEnv } from '../../config/env';
import { parseHeaderList, resolveObservability, tracesUrl } from './observability-settings';

const observability = (section: unknown) => configSchema.parse({ observability: section }).observability;
const env = (variables: Record<string, string>) => parseServerEnv(variables);

describe('resolveObservability', () => {
  it('is off when neither the config nor the standard variables ask for it', () => {
    expect(resolveObservability(observability({}), env({}))).toBeUndefined();
  });

  it('reads the standard OpenTelemetry variables, appending /v1/traces to the base endpoint', () => {
    const settings = resolveObservability(observability({}), env({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318/', OTEL_EXPORTER_OTLP_HEADERS: 'x-api-key=abc%3D1, tenant = ops' }));
    expect(settings).toEqual({ otlp: { url: 'http://collector:4318/v1/traces', headers: { 'x-api-key': 'abc=1', tenant: 'ops' } } });
  });

  it('lets the variable beat the config endpoint, and takes headers from the variable the config names', () => {
    const settings = resolveObservability(observability({ otlp: { endpoint: 'http://file:4318', headers_env: 'MY_HEADERS' } }), env({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://env:4318/v1/traces', MY_HEADERS: 'authorization=Bearer t' }));
    expect(settings?.otlp).toEqual({ url: 'http://env:4318/v1/traces', headers: { authorization: 'Bearer t' } });
  });

  it('turns Langfuse on from LANGFUSE_* alone, cloud by default, LANGFUSE_BASE_URL beating the file', () => {
    expect(resolveObservability(observability({}), env({ LANGFUSE_PUBLIC_KEY: 'pk', LANGFUSE_SECRET_KEY: 'sk' }))?.langfuse).toEqual({ baseUrl: 'https://cloud.langfuse.com', publicKey: 'pk', secretKey: 'sk' });
    const settings = resolveObservability(observability({ langfuse: { base_url: 'http://file:3000' } }), env({ LANGFUSE_PUBLIC_KEY: 'pk', LANGFUSE_SECRET_KEY: 'sk', LANGFUSE_BASE_URL: 'http://env:3000/' }));
    expect(settings?.langfuse?.baseUrl).toBe('http://env:3000');
  });

  it('names the missing key variable when the config asks for Langfuse without its keys', () => {
    expect(() => resolveObservability(observability({ langfuse: { public_key_env: 'LF_PK' } }), env({ LF_PK: 'pk' }))).toThrow(/observability\.langfuse: set LANGFUSE_SECRET_KEY/);
  });

  it('names a headers_env variable that is not set', () => {
    expect(() => resolveObservability(observability({ otlp: { endpoint: 'http://c:4318', headers_env: 'NOPE' } }), env({}))).toThrow(/observability\.otlp\.headers_env: the variable NOPE is not set/);
  });

  it('refuses a bad standard variable by name, without echoing header values', () => {
    expect(() => env({ OTEL_EXPORTER_OTLP_ENDPOINT: 'collector:4318' })).toThrow(/OTEL_EXPORTER_OTLP_ENDPOINT must be an http\(s\) URL/);
    expect(() => env({ OTEL_EXPORTER_OTLP_HEADERS: 'secret-token' })).toThrow(/^(?!.*secret-token).*OTEL_EXPORTER_OTLP_HEADERS must be a comma-separated list/);
    expect(() => env({ LANGFUSE_PUBLIC_KEY: 'pk' })).toThrow(/LANGFUSE_SECRET_KEY must be set too/);
  });

  it('refuses a config endpoint that is not a URL, naming the key', () => {
    expect(() => observability({ otlp: { endpoint: 'not a url' } })).toThrow(/endpoint/);
  });

  it('parses header lists and trace URLs as the OpenTelemetry spec writes them', () => {
    expect(parseHeaderList('a=1,b=x=y', 'H')).toEqual({ a: '1', b: 'x=y' });
    expect(tracesUrl('http://c:4318/v1/traces/')).toBe('http://c:4318/v1/traces');
  });
});
