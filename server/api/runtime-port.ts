/**
 * The slice of the runtime facade the web API calls. The API depends on this port, not on the
 * concrete ContextRuntime, so router tests can hand in a fake and the facade (server/runtime/index.ts)
 * satisfies it structurally.
 */
import type { ApprovalAuditEntry, RunListOptions, RunSummary } from '../runtime/contracts/run-store';
import type { PendingApproval, WaitingRun } from '../runtime/facade/approval-inbox';
import type { RecentAnswer } from '../runtime/facade/recent-answers';
import type { IngestReport } from '../runtime/contracts/store';
import type { Span } from '../runtime/contracts/trace-sink';
import type { ExplainResult, RunResult, SimulateResult } from '../runtime/explain/explain-types';
import type { ContextItem, Principal, SourceInfo } from '../runtime/types';
import type { RunOptions } from '../runtime/facade/run-progress';
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
  run(request: RunRequestInput, options?: RunOptions): Promise<RunResult>;
  /** Optional so fakes written before it need not change; the real runtime has it. */
  evidence?(runId: string): Promise<readonly ContextItem[]>;
  explain(request: RunRequestInput, options?: { analyze?: boolean }): Promise<ExplainResult>;
  simulate(request: RunRequestInput): Promise<SimulateResult>;
  approve(runId: string, nodeId: string, decision: ApprovalVerdict, by: string, comment: string): Promise<RunResult>;
  getRun(runId: string): Promise<{ run: RunResult; spans: readonly Span[] }>;
  listRuns(options: Partial<RunListOptions>): Promise<readonly RunSummary[]>;
  /** Optional so fakes written before the approvals inbox need not change; the real runtime has them. */
  pendingApprovals?(options: { limit?: number; principal?: Principal; startedBy?: string }): Promise<readonly PendingApproval[]>;
  /** The principal's own runs waiting at a gate, draft withheld. */
  waitingRunsOf?(options: { principal: Principal; limit?: number }): Promise<readonly WaitingRun[]>;
  /** Completed runs' answers the principal may read (source permissions applied by the runtime). */
  recentAnswers?(options: { principal: Principal; limit?: number }): Promise<readonly RecentAnswer[]>;
  approvalLog?(options: { limit?: number; offset?: number; runId?: string }): Promise<readonly ApprovalAuditEntry[]>;
  sources(): Promise<readonly SourceInfo[]>;
  ingest(path: string, options?: { source?: string }): Promise<IngestReport>;
  statistics(): Promise<readonly FieldStatistics[]>;
}
