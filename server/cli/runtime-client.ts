/**
 * What the CLI talks to: the runtime in this process, or — when a server already owns the
 * embedded data directory — that server over HTTP (tRPC). Two processes never open one PGlite
 * directory: that is how an embedded Postgres gets corrupted.
 */
import { createTRPCClient, httpLink } from '@trpc/client';
import superjson from 'superjson';
import type { AppRouter } from '../api/root-router';
import type { ContextRuntime } from '../runtime';
import type { IngestReport } from '../runtime/contracts/store';
import type { RunSummary } from '../runtime/contracts/run-store';
import type { FieldStatistics } from '../runtime/costmodel/cost-estimator';
import { readLocalUpload } from './upload-files';
import type { ExplainResult, RunResult, SimulateResult } from '../runtime/explain/explain-types';

export interface RuntimeClient {
  /** "this process" or the server's URL, for the user's benefit. */
  readonly via: string;
  run(request: object): Promise<RunResult>;
  explain(request: object, analyze: boolean): Promise<ExplainResult>;
  simulate(request: object): Promise<SimulateResult>;
  approve(runId: string, nodeId: string, decision: string, by: string, comment: string): Promise<RunResult>;
  ingest(path: string, source: string | undefined, onProgress: (done: number, total: number) => void): Promise<IngestReport>;
  listRuns(limit: number): Promise<readonly RunSummary[]>;
  statistics(): Promise<readonly FieldStatistics[]>;
  close(): Promise<void>;
}

export function localClient(runtime: ContextRuntime): RuntimeClient {
  return {
    via: 'this process',
    run: (request) => runtime.run(request),
    explain: (request, analyze) => runtime.explain(request, { analyze }),
    simulate: (request) => runtime.simulate(request),
    approve: (runId, nodeId, decision, by, comment) => runtime.approve(runId, nodeId, decision as 'approved', by, comment),
    ingest: (path, source, onProgress) => runtime.ingest(path, { source, onProgress }),
    listRuns: (limit) => runtime.listRuns({ limit }),
    statistics: () => runtime.statistics(),
    close: () => runtime.close(),
  };
}

/** `serviceToken`: the server's local token (see server/auth/local-secrets.ts); without it every call is refused. */
export function remoteClient(baseUrl: string, serviceToken?: string): RuntimeClient {
  const headers = serviceToken ? { authorization: `Bearer ${serviceToken}` } : {};
  const trpc = createTRPCClient<AppRouter>({ links: [httpLink({ url: `${baseUrl}/api/trpc`, transformer: superjson, headers })] });
  return {
    via: baseUrl,
    run: (request) => trpc.runtime.run.mutate(request as never) as Promise<RunResult>,
    explain: (request, analyze) => trpc.runtime.explain.mutate({ ...(request as object), analyze } as never) as Promise<ExplainResult>,
    simulate: (request) => trpc.runtime.simulate.mutate(request as never) as Promise<SimulateResult>,
    approve: (runId, nodeId, decision, by, comment) => trpc.runtime.approve.mutate({ runId, nodeId, decision, by, comment } as never) as Promise<RunResult>,
    // An upload: the server does not read paths a client names (only an admin's, below ingest.allowed_roots).
    ingest: async (path, source, onProgress) => {
      const local = await readLocalUpload(path, source);
      onProgress(0, 1);
      const report = (await trpc.runtime.upload.mutate({ source: local.source, files: local.files } as never)) as IngestReport;
      onProgress(1, 1);
      return { ...report, skipped: [...local.skipped, ...report.skipped] };
    },
    listRuns: (limit) => trpc.runtime.listRuns.query({ limit } as never) as Promise<readonly RunSummary[]>,
    statistics: () => trpc.runtime.statistics.query() as Promise<readonly FieldStatistics[]>,
    close: async () => {},
  };
}
