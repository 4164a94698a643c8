/**
 * The CLI's remote path over real HTTP: a loopback server runs the app router with the same
 * principal resolution as app/api/trpc (bearer service token), and the CLI client must present
 * the token the server wrote beside its data directory.
 */
import { createServer } from 'node:http';
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fetchRequestHandler } from '@trpc/server/adapters/fetch';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { appRouter } from '../api/root-router';
import type { RuntimePort } from '../api/runtime-port';
import { issueServiceToken, readServiceToken, serviceTokenPathOf } from '../auth/local-secrets';
import { CLI_PRINCIPAL, resolvePrincipal } from '../auth/request-principal';
import { ContextRuntimeError } from '../runtime/errors';
import type { Principal } from '../runtime/types';
import { listenOnLoopback, readBody } from '../testing/loopback-http';
import type { ContextRuntime } from '../runtime';
import { localClient, remoteClient } from './runtime-client';

const root = mkdtempSync(path.join(tmpdir(), 'cr-cli-remote-'));
const dataDir = path.join(root, 'pglite');
const seen: (Principal | undefined)[] = [];
let serverToken: string;
let server: Awaited<ReturnType<typeof listenOnLoopback>>;

const cancelled: { runId: string; by: Principal }[] = [];
const uploads: { files: readonly { path: string; content: Uint8Array }[]; source: string }[] = [];
/** The signals of uploads to the source 'held': they run until the request's connection closes. */
const heldSignals: (AbortSignal | undefined)[] = [];
/** What getRun answers for the run the CLI follows; a test moves it on. */
let followedStatus = 'running';
const runtime = {
  // A run that exists at once and never finishes by itself: the CLI follows it by id.
  run: (_request: unknown, options: { onProgress?: (event: { type: string; runId: string }) => void }) => {
    options.onProgress?.({ type: 'run_started', runId: 'run-followed' });
    return new Promise(() => {});
  },
  getRun: async (runId: string) => ({ run: { runId, status: followedStatus, answer: followedStatus === 'completed' ? 'done' : undefined }, spans: [] }),
  listRuns: async () => [{ id: 'run-1' }],
  cancel: async (runId: string, by: Principal) => (cancelled.push({ runId, by }), { runId, status: 'cancelled', error: `cancelled by ${by.user}` }),
  ingestUpload: async (files: readonly { path: string; content: Uint8Array }[], options: { source: string; signal?: AbortSignal }) => {
    if (options.source === 'held') {
      heldSignals.push(options.signal);
      return new Promise((_, reject) => options.signal?.addEventListener('abort', () => reject(new ContextRuntimeError('CANCELLED', 'the ingest was cancelled by its caller')), { once: true }));
    }
    uploads.push({ files, source: options.source });
    return { sources: [{ source: options.source, versionId: 'v1', changed: true, documents: files.length, chunks: files.length }], skipped: [] };
  },
  ingestServerPath: () => Promise.reject(new Error('the CLI must not ask the server to read a path')),
} as unknown as RuntimePort;

beforeAll(async () => {
  serverToken = issueServiceToken(dataDir);
  server = await serve();
});

/** The app router over real HTTP, as app/api/trpc serves it, with the fake runtime above. */
async function serve(): Promise<Awaited<ReturnType<typeof listenOnLoopback>>> {
  const http = createServer(async (incoming, outgoing) => {
    const body = incoming.method === 'POST' ? await readBody(incoming) : undefined;
    // As Next.js does (signalFromNodeResponse): the request's signal aborts when the connection closes before the answer.
    const connection = new AbortController();
    outgoing.once('close', () => outgoing.writableFinished || connection.abort());
    const request = new Request(`http://127.0.0.1${incoming.url}`, { method: incoming.method, headers: incoming.headers as Record<string, string>, body, signal: connection.signal });
    const response = await fetchRequestHandler({
      endpoint: '/api/trpc',
      req: request,
      router: appRouter,
      createContext: async () => {
        const principal = await resolvePrincipal(request.headers, {
          secret: () => 'unused-in-this-test-0123456789abcdef',
          users: () => Promise.reject(new Error('no cookie sessions in this test')),
          isServiceToken: (token) => token === serverToken,
        });
        seen.push(principal);
        return { runtime: async () => runtime, ...(principal ? { principal } : {}) };
      },
    });
    outgoing.writeHead(response.status, Object.fromEntries(response.headers));
    outgoing.end(await response.text());
  });
  return listenOnLoopback(http);
}

afterAll(async () => {
  await server?.close();
  rmSync(root, { recursive: true, force: true });
});

describe('CLI over HTTP with the service token', () => {
  const origin = () => server.baseURL.replace(/\/v1$/, '');

  it('writes the token owner-only and reads it back', () => {
    expect(statSync(serviceTokenPathOf(dataDir)).mode & 0o777).toBe(0o600);
    expect(readServiceToken(dataDir)).toBe(serverToken);
    expect(readServiceToken(path.join(root, 'elsewhere'))).toBeUndefined();
  });

  it('is served as cli@local (admin) with the token, and refused without it or with an old one', async () => {
    await expect(remoteClient(origin(), readServiceToken(dataDir)).listRuns(5)).resolves.toEqual([{ id: 'run-1' }]);
    expect(seen.at(-1)).toEqual({ user: 'cli@local', roles: ['admin'] });
    await expect(remoteClient(origin()).listRuns(5)).rejects.toMatchObject({ message: 'sign in required' });
    const old = serverToken;
    serverToken = issueServiceToken(dataDir);
    await expect(remoteClient(origin(), old).listRuns(5)).rejects.toMatchObject({ message: 'sign in required' });
  });

  // Issue 12, finding 2: the CLI used to send the server a path to read on its own disk.
  it('cancels through the server as cli@local, the identity the local client also uses', async () => {
    await expect(remoteClient(origin(), readServiceToken(dataDir)).cancel('run-9')).resolves.toMatchObject({ runId: 'run-9', status: 'cancelled', error: 'cancelled by cli@local' });
    expect(cancelled).toEqual([{ runId: 'run-9', by: CLI_PRINCIPAL }]);
  });

  it('cancels in this process as that same identity', async () => {
    const by: Principal[] = [];
    const local = localClient({ cancel: async (runId: string, principal: Principal) => (by.push(principal), { runId, status: 'cancelled' }) } as unknown as ContextRuntime);
    await expect(local.cancel('run-7')).resolves.toMatchObject({ status: 'cancelled' });
    expect(by).toEqual([CLI_PRINCIPAL]);
  });

  it('runs in this process as that same identity, never as anonymous', async () => {
    const requests: unknown[] = [];
    const local = localClient({ run: async (request: unknown) => (requests.push(request), { runId: 'run-8', status: 'completed' }) } as unknown as ContextRuntime);
    await local.run({ goal: 'Why did checkout-api fail?' });
    expect(requests).toEqual([{ goal: 'Why did checkout-api fail?', principal: CLI_PRINCIPAL }]);
  });

  // Issue 13, point 1: Ctrl-C in the CLI aborts the upload's request, and the closed connection stops the server's ingest.
  it('stops the server’s ingest when the CLI aborts the upload (Ctrl-C)', async () => {
    const folder = path.join(root, 'held');
    mkdirSync(folder, { recursive: true });
    writeFileSync(path.join(folder, 'notes.md'), '# Notes\n');
    const interrupt = new AbortController();
    const uploading = remoteClient(origin(), readServiceToken(dataDir)).ingest(folder, 'held', () => {}, interrupt.signal).catch((caught: unknown) => caught);
    await vi.waitFor(() => expect(heldSignals).toHaveLength(1));
    expect(heldSignals[0]?.aborted).toBe(false);
    interrupt.abort();
    expect(await uploading).toBeInstanceOf(Error);
    await vi.waitFor(() => expect(heldSignals[0]?.aborted).toBe(true));
  });

  it('ingests in this process with the CLI’s Ctrl-C signal', async () => {
    const signals: (AbortSignal | undefined)[] = [];
    const local = localClient({ ingest: async (_path: string, options: { signal?: AbortSignal }) => (signals.push(options.signal), { sources: [], skipped: [] }) } as unknown as ContextRuntime);
    const interrupt = new AbortController();
    await local.ingest('/tmp/notes', undefined, () => {}, interrupt.signal);
    expect(signals).toEqual([interrupt.signal]);
  });

  it('ingests against a running server by uploading the files it reads itself, not by sending a path', async () => {
    const folder = path.join(root, 'notes');
    mkdirSync(path.join(folder, 'runbooks'), { recursive: true });
    writeFileSync(path.join(folder, 'runbooks', 'restart.md'), '# Restart\n');
    writeFileSync(path.join(folder, '.env'), 'TOKEN=1\n');
    const report = await remoteClient(origin(), readServiceToken(dataDir)).ingest(folder, undefined, () => {});
    expect(uploads.map((entry) => ({ source: entry.source, files: entry.files.map((file) => [file.path, Buffer.from(file.content).toString()]) }))).toEqual([
      { source: 'notes', files: [['runbooks/restart.md', '# Restart\n']] },
    ]);
    expect(report.skipped).toEqual([{ path: path.join(folder, '.env'), reason: 'hidden file' }]);
  });

  it('submits a run, then follows it by id until it ends', async () => {
    followedStatus = 'running';
    const client = remoteClient(origin(), readServiceToken(dataDir));
    const result = client.run({ goal: 'Explain why deployment checkout-api failed' });
    await new Promise((resolve) => setTimeout(resolve, 500));
    followedStatus = 'completed';
    await expect(result).resolves.toMatchObject({ runId: 'run-followed', status: 'completed', answer: 'done' });
  });

  it('names the run that was in flight when the server stopped answering', async () => {
    followedStatus = 'running';
    const dying = await serve();
    const client = remoteClient(dying.baseURL.replace(/\/v1$/, ''), readServiceToken(dataDir));
    const result = client.run({ goal: 'Explain why deployment checkout-api failed' });
    const failure = expect(result).rejects.toMatchObject({ code: 'INTERNAL', details: { runId: 'run-followed' } });
    await new Promise((resolve) => setTimeout(resolve, 500));
    await dying.close();
    await failure;
    await expect(result).rejects.toThrow(/run run-followed was in flight when the server at http:\/\/127\.0\.0\.1:\d+ stopped answering .* `context-runtime runs`/);
  });
});
