/**
 * Issue 10: a server whose runtime failed to open released its data-directory lock while the
 * database it had opened stayed registered for sign-in; the CLI then opened the same directory and
 * an admin created on the server was gone after a restart. A failed open must close what it opened,
 * and the server process keeps owning the directory, so the CLI talks to it instead.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { registeredAuthDatabase } from '../auth/auth-database-holder';
import { acquireDataDirLock, readDataDirLock, releaseDataDirClaim } from './data-dir-lock';
import { getRuntime } from './runtime-instance';

const root = mkdtempSync(path.join(tmpdir(), 'cr-failed-start-'));
const dataDir = path.join(root, 'pglite');
const port = 3987;
const saved = { dataDir: process.env.CONTEXT_RUNTIME_DATA_DIR, cache: process.env.CONTEXT_RUNTIME_EMBEDDINGS_CACHE, port: process.env.PORT };

afterAll(() => {
  for (const [key, value] of [['CONTEXT_RUNTIME_DATA_DIR', saved.dataDir], ['CONTEXT_RUNTIME_EMBEDDINGS_CACHE', saved.cache], ['PORT', saved.port]] as const) {
    if (value === undefined) delete process.env[key];
    else process.env[key] = value;
  }
  releaseDataDirClaim(dataDir);
  rmSync(root, { recursive: true, force: true });
});

/** The real CLI entry (`connectRuntime`) in its own process, as `npx context-runtime` runs it. */
async function cliAttempt(): Promise<{ readonly via: string; readonly runError: string }> {
  const script = [
    "import('./server/cli/connect-runtime.ts').then(async ({ connectRuntime }) => {",
    '  const client = await connectRuntime();',
    "  console.log('VIA ' + client.via);",
    "  await client.run({ goal: 'Explain why deployment checkout-api failed' }).catch((error) => console.log('RUN-ERROR ' + error.message));",
    '  await client.close();',
    '})',
  ].join('\n');
  const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', '-e', script], {
    cwd: path.resolve(__dirname, '../..'),
    env: { ...process.env, CONTEXT_RUNTIME_DATA_DIR: dataDir },
    timeout: 90_000,
  });
  return { via: /VIA (\S+)/.exec(stdout)?.[1] ?? stdout, runError: /RUN-ERROR (.*)/.exec(stdout)?.[1] ?? '' };
}

describe('a server whose runtime fails to open', () => {
  it('closes what it opened, keeps the data directory, and the CLI talks to the server', async () => {
    process.env.CONTEXT_RUNTIME_DATA_DIR = dataDir;
    process.env.PORT = String(port);
    // A folder where the word-vector cache file should be: the open fails after the database is
    // open and registered for sign-in (embedding the demo corpus), as the bundle's failure did.
    const unreadableCache = path.join(root, 'embeddings-cache-is-a-folder');
    mkdirSync(unreadableCache);
    process.env.CONTEXT_RUNTIME_EMBEDDINGS_CACHE = unreadableCache;

    await expect(getRuntime()).rejects.toThrow();

    // Nothing left open for sign-in to write to.
    expect(registeredAuthDatabase()).toBeUndefined();
    // The server process still owns the directory, with the port the CLI should use.
    expect(readDataDirLock(dataDir)).toMatchObject({ pid: process.pid, port, alive: true });
    // In this process the next attempt may take it (the failed one released its lease)…
    acquireDataDirLock(dataDir).release();
    // …but another process (the CLI) goes to the server rather than opening the database, and
    // when nothing answers on the recorded port it says so instead of "fetch failed".
    const cli = await cliAttempt();
    expect(cli.via).toBe(`http://127.0.0.1:${port}`);
    expect(cli.runError).toContain(`belongs to the server process ${process.pid}, which did not answer at http://127.0.0.1:${port}`);
    expect(cli.runError).toContain('does not open a data directory a running server owns');
  }, 120_000);
});
