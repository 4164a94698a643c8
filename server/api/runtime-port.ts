/**
 * The runtime facade as the web API calls it: every capability a router uses is declared here, so
 * no router casts the runtime to reach a method. Router tests hand in fakes; the real
 * ContextRuntime (server/runtime/index.ts) is checked against this port at compile time below.
 */
import type { ContextRuntime } from '../runtime';
import type { LimitsConfig } from '../runtime/config/limits-schema';
import type { ApprovalAuditEntry, AuditVerification, RunListOptions, RunSummary } from '../runtime/contracts/run-store';
import type { KnowledgePlugin } from '../runtime/contracts/knowledge';
import type { PlanCachePlugin } from '../runtime/contracts/plan-cache';
import type { PendingApproval, WaitingRun } from '../runtime/facade/approval-inbox';
import type { RecentAnswer } from '../runtime/facade/recent-answers';
import type { IngestReport, UploadedFile } from '../runtime/contracts/store';
import type { RetentionReport } from '../runtime/contracts/retention';
import type { Span } from '../runtime/contracts/trace-sink';
import type { ExplainResult, RunResult, SimulateResult } from '../runtime/explain/explain-types';
import type { ContextItem, Principal, SourceInfo } from '../runtime/types';
import type { RunOptions } from '../runtime/facade/run-progress';
import type { GoalContext } from '../runtime/facade/context-for-goal';
import type { CalibrationReport, CalibrationReportOptions } from '../runtime/costmodel/calibration-report';
import type { FieldStatistics } from '../runtime/costmodel/cost-estimator';
import type { ArmSummary, LearningSettings } from '../runtime/learning/bandit-learner';
import type { FeedbackTally, Thumb } from '../runtime/learning/bandit-store';

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

/** The Knowledge plugin's page-facing parts, scoped to the caller; either may be absent (a plugin without a graph). */
export type KnowledgePort = Pick<KnowledgePlugin, 'explorer' | 'memories'>;

/** The plan cache's dashboard operations. */
export type PlanCachePort = Pick<PlanCachePlugin, 'stats' | 'invalidate'>;

/** The learning loop: the bandit's arms and people's thumbs on runs. */
export interface LearningPort {
  /** The bandit policy id, read from the runtime rather than imported from the learner. */
  readonly policy: string;
  readonly settings: LearningSettings;
  arms(): Promise<readonly ArmSummary[]>;
  /** `voter` is the signed-in principal: a run they may not read answers NOT_FOUND, as a missing one does. */
  feedback(runId: string, voter: Principal, thumb: Thumb): Promise<FeedbackTally>;
}

/**
 * Every read takes the caller's principal (required here, so a router cannot forget it): the
 * runtime's one access check (runtime/access/principal-access.ts) decides what they may see, and
 * what they may not is reported as not found.
 */
export interface RuntimePort {
  /** The limits the API and sign-in enforce in front of the runtime (config `limits`). */
  readonly config: { readonly limits: LimitsConfig };
  run(request: RunRequestInput, options?: RunOptions): Promise<RunResult>;
  /** Plans and records the run, and returns it `queued` without waiting when a job engine executes runs. */
  submit(request: RunRequestInput): Promise<RunResult>;
  /** Plans the goal, checks the edited graph stays inside that plan's policy envelope, and runs it. */
  runEditedPlan(request: RunRequestInput, graph: unknown): Promise<RunResult>;
  evidence(runId: string, principal: Principal): Promise<readonly ContextItem[]>;
  explain(request: RunRequestInput, options?: { analyze?: boolean }): Promise<ExplainResult>;
  simulate(request: RunRequestInput): Promise<SimulateResult>;
  /** Ranked, cited passages for the goal within a token budget: retrieval and assembly, no model call, no run stored. */
  contextFor(request: RunRequestInput, options?: { tokenBudget?: number }): Promise<GoalContext>;
  /** Decides a gate as `decider` (who must hold the gate's role and, to approve, not have started the run). */
  approve(runId: string, nodeId: string, decision: ApprovalVerdict, decider: Principal, comment: string): Promise<RunResult>;
  /** Cancels a running or paused run as its starter or an admin; in-flight calls abort. */
  cancel(runId: string, principal: Principal): Promise<RunResult>;
  getRun(runId: string, principal: Principal): Promise<{ run: RunResult; spans: readonly Span[] }>;
  listRuns(options: Partial<RunListOptions> & { principal: Principal }): Promise<readonly RunSummary[]>;
  pendingApprovals(options: { limit?: number; principal: Principal; startedBy?: string }): Promise<readonly PendingApproval[]>;
  /** The principal's own runs waiting at a gate, draft withheld. */
  waitingRunsOf(options: { principal: Principal; limit?: number }): Promise<readonly WaitingRun[]>;
  /** Completed runs' answers the principal may read (source permissions applied by the runtime). */
  recentAnswers(options: { principal: Principal; limit?: number }): Promise<readonly RecentAnswer[]>;
  approvalLog(options: { limit?: number; offset?: number; runId?: string; principal: Principal }): Promise<readonly ApprovalAuditEntry[]>;
  verifyApprovalLog(): Promise<AuditVerification>;
  sources(principal: Principal): Promise<readonly SourceInfo[]>;
  /** `signal`: the request's (aborted when the client disconnects); the ingest stops and undoes the source it was writing. */
  ingestServerPath(path: string, options: { source?: string; principal: Principal; signal?: AbortSignal }): Promise<IngestReport>;
  ingestUpload(files: readonly UploadedFile[], options: { source: string; principal: Principal; signal?: AbortSignal }): Promise<IngestReport>;
  statistics(): Promise<readonly FieldStatistics[]>;
  /** Deletes what config.retention says has aged out (admins). */
  applyRetention(principal: Principal): Promise<RetentionReport>;
  /** The /calibration dashboard's report. */
  calibration(options?: CalibrationReportOptions): Promise<CalibrationReport>;
  knowledge(principal: Principal): Promise<KnowledgePort>;
  /** Undefined when no cache is wired or plan_cache.enabled is false. */
  planCache(): PlanCachePort | undefined;
  learning(): LearningPort;
}

/**
 * Compile-time guard against drift: adding a member here that the real runtime lacks (or changing
 * a signature there) fails `tsc` on this line instead of a router finding out at run time.
 */
type MustHold<Condition extends true> = Condition;
export type ContextRuntimeImplementsPort = MustHold<ContextRuntime extends RuntimePort ? true : false>;
