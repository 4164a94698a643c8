/**
 * What the CLI talks to: the runtime in this process, or — when a server already owns the
 * embedded data directory — that server over HTTP (tRPC). Two processes never open one PGlite
 * directory: that is how an embedded Postgres gets corrupted.
 */
import { createTRPCClient, httpLink } from '@trpc/client';
import superjson from 'superjson';
import type { AppRouter } from '../api/root-router';
import { registeredAuthDatabase } from '../auth/auth-database-holder';
import { type CliCredentials, cliDecider } from '../auth/cli-decider';
import { ApiKeyStore } from '../auth/api-key-store';
import { UserStore } from '../auth/user-store';
import { ContextRuntimeError } from '../runtime/errors';
import type { ContextRuntime, Principal, RetentionReport } from '../runtime';
import type { IngestReport } from '../runtime/contracts/store';
import type { AuditVerification, RunSummary } from '../runtime/contracts/run-store';
import type { FieldStatistics } from '../runtime/costmodel/cost-estimator';
import { readLocalUpload } from './upload-files';
import type { ExplainResult, RunResult, SimulateResult } from '../runtime/explain/explain-types';

export interface RuntimeClient {
  /** "this process" or the server's URL, for the user's benefit. */
  readonly via: string;
  /** Said on stderr before the command runs: e.g. that the CLI works through a server on another database than its own config names. */
  readonly notice?: string;
  run(request: object): Promise<RunResult>;
  explain(request: object, analyze: boolean): Promise<ExplainResult>;
  simulate(request: object): Promise<SimulateResult>;
  /** Decides as the account `credentials` sign in as (cli-decider.ts), never as a bare name. */
  approve(runId: string, nodeId: string, decision: string, credentials: CliCredentials, comment: string): Promise<RunResult>;
  /** Cancels a running or paused run (the CLI acts as an admin: it holds the data directory or the server's service token). */
  cancel(runId: string): Promise<RunResult>;
  /** `signal` (Ctrl-C): the ingest stops; the runtime, here or on the server, undoes the source it was writing. */
  ingest(path: string, source: string | undefined, onProgress: (done: number, total: number) => void, signal?: AbortSignal): Promise<IngestReport>;
  listRuns(limit: number): Promise<readonly RunSummary[]>;
  verifyAuditLog(): Promise<AuditVerification>;
  statistics(): Promise<readonly FieldStatistics[]>;
  /** An API key for the HTTP API (the CLI acts as an admin); `key` is shown this once. */
  createApiKey(input: NewCliApiKey): Promise<CreatedApiKey>;
  /** Applies config.retention now (the server's config when a server owns the data). */
  applyRetention(): Promise<RetentionReport>;
  close(): Promise<void>;
}

export interface NewCliApiKey {
  readonly name: string;
  readonly role: string;
  /** Null: every source the role may read. */
  readonly sources: readonly string[] | null;
}

export interface CreatedApiKey {
  readonly key: string;
  readonly record: { readonly prefix: string; readonly name: string; readonly role: string; readonly sources: readonly string[] | null };
}

/**
 * The CLI in the process that owns the data: the identity the server gives the CLI's service token
 * (auth/request-principal.ts CLI_PRINCIPAL, not imported: it pulls in next-auth).
 */
export const LOCAL_CLI: Principal = Object.freeze({ user: 'cli@local', roles: Object.freeze(['admin']) });

export function localClient(runtime: ContextRuntime): RuntimeClient {
  return {
    via: 'this process',
    // Recorded as the same identity the server gives the CLI, never as `anonymous` (issue 13, point 4).
    run: (request) => runtime.run({ ...request, principal: LOCAL_CLI }),
    explain: (request, analyze) => runtime.explain({ ...request, principal: LOCAL_CLI }, { analyze }),
    simulate: (request) => runtime.simulate({ ...request, principal: LOCAL_CLI }),
    approve: async (runId, nodeId, decision, credentials, comment) => {
      // The runtime registered its database for sign-in when it opened (bootstrap.ts): accounts live there.
      const database = registeredAuthDatabase();
      if (!database) throw new ContextRuntimeError('INTERNAL', 'the runtime opened without its accounts database');
      return runtime.approve(runId, nodeId, decision as 'approved', await cliDecider(new UserStore(database), credentials), comment);
    },
    cancel: (runId) => runtime.cancel(runId, LOCAL_CLI),
    ingest: (path, source, onProgress, signal) => runtime.ingest(path, { source, onProgress, ...(signal ? { signal } : {}) }),
    listRuns: (limit) => runtime.listRuns({ limit }),
    verifyAuditLog: () => runtime.verifyApprovalLog(),
    statistics: () => runtime.statistics(),
    createApiKey: async (input) => {
      const database = registeredAuthDatabase();
      if (!database) throw new ContextRuntimeError('INTERNAL', 'the runtime opened without its accounts database');
      const known = (await runtime.sources()).map((source) => source.name);
      return new ApiKeyStore(database).create({ ...input, createdBy: LOCAL_CLI.user }, known);
    },
    applyRetention: () => runtime.applyRetention(LOCAL_CLI),
    close: () => runtime.close(),
  };
}

/** From 200 ms up to 1 s: a short run answers at once, a long one costs a query a second. */
const POLL_MS = { first: 200, max: 1_000 };

/** Polls the run until it leaves `running`; losing the server meanwhile names the run, which the server resumes or fails on restart. */
async function followRun(trpc: ReturnType<typeof createTRPCClient<AppRouter>>, baseUrl: string, runId: string): Promise<RunResult> {
  for (let delay = POLL_MS.first; ; delay = Math.min(delay * 2, POLL_MS.max)) {
    let run: RunResult;
    try {
      ({ run } = (await trpc.runtime.getRun.query({ runId })) as { run: RunResult });
    } catch (error) {
      throw new ContextRuntimeError(
        'INTERNAL',
        `run ${runId} was in flight when the server at ${baseUrl} stopped answering (${error instanceof Error ? error.message : String(error)}). ` +
          `The server resumes it or marks it failed when it starts again; look it up with \`context-runtime runs\``,
        { details: { runId } },
      );
    }
    if (run.status !== 'running') return run;
    await new Promise((resolve) => setTimeout(resolve, delay));
  }
}

/** `serviceToken`: the server's local token (see server/auth/local-secrets.ts); without it every call is refused. */
export function remoteClient(baseUrl: string, serviceToken?: string): RuntimeClient {
  const headers = serviceToken ? { authorization: `Bearer ${serviceToken}` } : {};
  const trpc = createTRPCClient<AppRouter>({ links: [httpLink({ url: `${baseUrl}/api/trpc`, transformer: superjson, headers })] });
  return {
    via: baseUrl,
    // Submit, then follow by id: a server that dies mid-run still leaves the CLI the run's id.
    run: async (request) => followRun(trpc, baseUrl, (await trpc.console.start.mutate(request as never)).runId),
    explain: (request, analyze) => trpc.runtime.explain.mutate({ ...(request as object), analyze } as never) as Promise<ExplainResult>,
    simulate: (request) => trpc.runtime.simulate.mutate(request as never) as Promise<SimulateResult>,
    approve: (runId, nodeId, decision, credentials, comment) => trpc.runtime.approve.mutate({ runId, nodeId, decision, ...credentials, comment } as never) as Promise<RunResult>,
    cancel: (runId) => trpc.runtime.cancel.mutate({ runId }) as Promise<RunResult>,
    // An upload: the server does not read paths a client names (only an admin's, below ingest.allowed_roots).
    // Aborting the request closes the connection: the server's ingest stops with it (runtime-router.ts).
    ingest: async (path, source, onProgress, signal) => {
      const local = await readLocalUpload(path, source);
      signal?.throwIfAborted();
      onProgress(0, 1);
      const report = (await trpc.runtime.upload.mutate({ source: local.source, files: local.files } as never, signal ? { signal } : {})) as IngestReport;
      onProgress(1, 1);
      return { ...report, skipped: [...local.skipped, ...report.skipped] };
    },
    listRuns: (limit) => trpc.runtime.listRuns.query({ limit } as never) as Promise<readonly RunSummary[]>,
    verifyAuditLog: () => trpc.approvals.verify.query(),
    statistics: () => trpc.runtime.statistics.query() as Promise<readonly FieldStatistics[]>,
    createApiKey: (input) => trpc.apiKeys.create.mutate({ ...input, sources: input.sources ? [...input.sources] : null }),
    applyRetention: () => trpc.runtime.applyRetention.mutate() as Promise<RetentionReport>,
    close: async () => {},
  };
}
