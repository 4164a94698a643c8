import { execFile } from 'node:child_process';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { isContextRuntimeError } from '../runtime/errors';
import { parseServerEnv, resetServerEnv, serverEnv, serverEnvWith } from './env';

/** The message and field of the error parsing `variables` throws. */
function refusal(variables: Record<string, string>): { readonly message: string; readonly field?: string; readonly code?: string } {
  try {
    parseServerEnv(variables);
  } catch (error) {
    if (!isContextRuntimeError(error)) throw error;
    return { message: error.message, field: error.field, code: error.code };
  }
  throw new Error(`parsed without complaint: ${JSON.stringify(variables)}`);
}

describe('the environment schema', () => {
  it('gives defaults when nothing is set, and counts blank values as unset', () => {
    const env = parseServerEnv({ DATABASE_URL: '', CONTEXT_RUNTIME_DATA_DIR: '  ', PORT: '' });
    expect(env).toMatchObject({ nodeEnv: 'development', port: 3000, debug: false });
    expect(env.databaseUrl).toBeUndefined();
    expect(env.dataDir).toBeUndefined();
    expect(env.admin).toBeUndefined();
    expect(env.oidc).toBeUndefined();
    expect(Object.isFrozen(env)).toBe(true);
    expect(Object.isFrozen(env.variables)).toBe(true);
  });

  it('types every value it accepts', () => {
    const env = parseServerEnv({
      NODE_ENV: 'production',
      PORT: '3110',
      DATABASE_URL: 'postgresql://user:pw@127.0.0.1:5432/context',
      CONTEXT_RUNTIME_DATA_DIR: '/tmp/data',
      CONTEXT_RUNTIME_CONFIG: 'conf.yaml',
      CONTEXT_RUNTIME_EMBEDDINGS_CACHE: '/tmp/vectors.bin',
      CONTEXT_RUNTIME_OPENIE_MAX_PASSAGES: '0',
      CONTEXT_RUNTIME_DEBUG: '1',
      CONTEXT_RUNTIME_ADMIN_EMAIL: ' root@example.com ',
      CONTEXT_RUNTIME_ADMIN_PASSWORD: 'twelve chars!',
      CONTEXT_RUNTIME_OIDC_ISSUER: 'https://id.example.com/realms/ops/',
      CONTEXT_RUNTIME_OIDC_CLIENT_ID: 'context-runtime',
      CONTEXT_RUNTIME_OIDC_CLIENT_SECRET: 's3cret',
      AUTH_SECRET: 'signing',
      NEXTAUTH_URL: 'https://context.example.com',
      GROQ_KEY: 'named by a config file',
    });
    expect(env).toMatchObject({
      nodeEnv: 'production',
      port: 3110,
      databaseUrl: 'postgresql://user:pw@127.0.0.1:5432/context',
      dataDir: '/tmp/data',
      configPath: 'conf.yaml',
      embeddingsCache: '/tmp/vectors.bin',
      openIeMaxPassages: 0,
      debug: true,
      admin: { email: 'root@example.com', password: 'twelve chars!' },
      oidc: { issuer: 'https://id.example.com/realms/ops', clientId: 'context-runtime', clientSecret: 's3cret' },
      authSecret: 'signing',
      nextAuthUrl: 'https://context.example.com',
    });
    // api_key_env may name any variable: the adapters find it among the variables passed down.
    expect(env.variables.GROQ_KEY).toBe('named by a config file');
  });

  it.each([
    [{ CONTEXT_RUNTIME_ADMIN_EMAIL: 'root@example.com', CONTEXT_RUNTIME_ADMIN_PASSWORD: 'short' }, 'CONTEXT_RUNTIME_ADMIN_PASSWORD', 'CONTEXT_RUNTIME_ADMIN_PASSWORD must be at least 12 characters'],
    [{ CONTEXT_RUNTIME_ADMIN_EMAIL: 'root', CONTEXT_RUNTIME_ADMIN_PASSWORD: 'a long enough one' }, 'CONTEXT_RUNTIME_ADMIN_EMAIL', 'CONTEXT_RUNTIME_ADMIN_EMAIL must be an email address such as admin@example.com, got "root"'],
    [{ CONTEXT_RUNTIME_ADMIN_EMAIL: 'root@example.com' }, 'CONTEXT_RUNTIME_ADMIN_PASSWORD', 'CONTEXT_RUNTIME_ADMIN_PASSWORD must be set too, since CONTEXT_RUNTIME_ADMIN_EMAIL is'],
    [{ PORT: 'http' }, 'PORT', 'PORT must be a whole number from 1 to 65535, got "http"'],
    [{ PORT: '70000' }, 'PORT', 'PORT must be a whole number from 1 to 65535, got "70000"'],
    [{ DATABASE_URL: 'mysql://localhost/db' }, 'DATABASE_URL', 'DATABASE_URL must be a postgres:// or postgresql:// connection URL'],
    [{ CONTEXT_RUNTIME_OPENIE_MAX_PASSAGES: '-1' }, 'CONTEXT_RUNTIME_OPENIE_MAX_PASSAGES', 'CONTEXT_RUNTIME_OPENIE_MAX_PASSAGES must be a whole number from 0 to 1000000, got "-1"'],
    [{ NEXTAUTH_URL: 'context.example.com' }, 'NEXTAUTH_URL', 'NEXTAUTH_URL must be an http(s) URL'],
    [{ CONTEXT_RUNTIME_OIDC_ISSUER: 'https://id.example.com' }, 'CONTEXT_RUNTIME_OIDC_CLIENT_ID', 'CONTEXT_RUNTIME_OIDC_CLIENT_ID must be set too, since CONTEXT_RUNTIME_OIDC_ISSUER is'],
    [{ NODE_ENV: 'staging' }, 'NODE_ENV', 'NODE_ENV must be development, production or test, got "staging"'],
  ])('refuses %j naming %s and what it expected', (variables, field, expected) => {
    const { message, field: named, code } = refusal(variables);
    expect(code).toBe('INVALID_CONFIG');
    expect(named).toBe(field);
    expect(message).toContain(expected);
  });

  it('names every bad variable at once and never echoes a secret', () => {
    const { message } = refusal({ PORT: 'x', DATABASE_URL: 'mysql://root:hunter2@db/x', CONTEXT_RUNTIME_ADMIN_EMAIL: 'a@b.co', CONTEXT_RUNTIME_ADMIN_PASSWORD: 'hunter2' });
    expect(message).toMatch(/PORT .*; DATABASE_URL .*; CONTEXT_RUNTIME_ADMIN_PASSWORD /);
    expect(message).not.toContain('hunter2');
  });
});

describe('serverEnv', () => {
  const saved = process.env.PORT;
  afterEach(() => {
    if (saved === undefined) delete process.env.PORT;
    else process.env.PORT = saved;
    resetServerEnv();
  });

  it('parses the process environment once; overrides parse afresh', () => {
    process.env.PORT = '3111';
    resetServerEnv();
    const first = serverEnv();
    process.env.PORT = '3112';
    expect(serverEnv()).toBe(first);
    expect(serverEnv().port).toBe(3111);
    expect(serverEnvWith({ PORT: '3113' }).port).toBe(3113);
  });

  it('stops the server start (instrumentation register) on a bad variable, before the runtime opens, without a stack trace', async () => {
    const { register } = await import('../../instrumentation');
    const nextRuntime = process.env.NEXT_RUNTIME;
    process.env.NEXT_RUNTIME = 'nodejs';
    process.env.PORT = 'eighty';
    resetServerEnv();
    const errors: string[] = [];
    const originalError = console.error;
    console.error = (line: string) => errors.push(line);
    const exit = vi.spyOn(process, 'exit').mockImplementation((code) => {
      throw new Error(`exit ${code}`);
    });
    try {
      await expect(register()).rejects.toThrow('exit 1');
    } finally {
      exit.mockRestore();
      console.error = originalError;
      if (nextRuntime === undefined) delete process.env.NEXT_RUNTIME;
      else process.env.NEXT_RUNTIME = nextRuntime;
    }
    expect(errors).toEqual([
      '[context-runtime] environment: PORT must be a whole number from 1 to 65535, got "eighty"',
      '[context-runtime] not starting: correct the variable(s) above and start again',
    ]);
  });

  it('stops the CLI with the variable named and exit 2, before any database opens', async () => {
    const bin = path.resolve(__dirname, '../../bin/context-runtime.mjs');
    const outcome = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
      execFile(process.execPath, [bin, 'runs'], { env: { ...process.env, CONTEXT_RUNTIME_DATA_DIR: '/nonexistent/never-opened', PORT: '0' }, timeout: 60_000 }, (error, _stdout, stderr) =>
        resolve({ code: error ? ((error as { code?: number }).code ?? null) : 0, stderr }),
      );
    });
    expect(outcome.stderr.trim()).toBe('context-runtime: environment: PORT must be a whole number from 1 to 65535, got "0"');
    expect(outcome.code).toBe(2);
  }, 60_000);
});
