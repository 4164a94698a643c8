/**
 * The slice of the runtime facade the web API calls. The API depends on this port, not on the
 * concrete ContextRuntime, so router tests can hand in a fake and the facade (server/runtime/index.ts)
 * satisfies it structurally.
 */
import type { RunSummary, RunStatus } from '../runtime/contracts/run-store';
import type { IngestResult } from '../runtime/contracts/store';
import type { Span } from '../runtime/contracts/trace-sink';
import type { ExplainResult, RunResult, SimulateResult } from '../runtime/explain/explain-types';
import type { Principal, SourceInfo } from '../runtime/types';
import type { FieldStatistics } from '../runtime/costmodel/cost-estimator';

/**
 * A request as it arrives from a caller: deliberately loose (constraints and weights are
 * unvalidated records) because the runtime validates it and names the offending field.
 */
export interface RunRequestInput {
  readonly goal: string;
  readonly sources?: readonly string[];
  readonly constraints?: Readonly<Record<string, unknown>>;
  readonly weights?: Readonly<Record<string, unknown>>;
  readonly principal?: Principal;
}

export type ApprovalVerdict = 'approved' | 'rejected';

export interface RuntimePort {
  run(request: RunRequestInput): Promise<RunResult>;
  explain(request: RunRequestInput, options?: { analyze?: boolean }): Promise<ExplainResult>;
  simulate(request: RunRequestInput): Promise<SimulateResult>;
  approve(runId: string, nodeId: string, decision: ApprovalVerdict, by: string, comment: string): Promise<RunResult>;
  getRun(runId: string): Promise<{ run: RunResult; spans: readonly Span[] }>;
  listRuns(options: { limit: number; status?: RunStatus; search?: string }): Promise<readonly RunSummary[]>;
  sources(): Promise<readonly SourceInfo[]>;
  ingest(path: string, options?: { source?: string }): Promise<readonly IngestResult[]>;
  statistics(): Promise<readonly FieldStatistics[]>;
}
