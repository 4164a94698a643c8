import type { NodeOutcome } from './scheduler';

/** Contract version of the RunStore plugin (durable run state for pause/resume). */
export const RUN_STORE_CONTRACT = 'run-store/v1' as const;

/**
 * Every status a run can have: the one list validation and filters read. `queued`: planned and
 * waiting for a worker (execution.engine graphile_worker), before its first wave and between waves.
 * `unverified`: the run answered, but its required verification failed on every attempt — an
 * answer with the reasons it is not verified, never presented as a completed one.
 */
export const RUN_STATUSES = ['queued', 'running', 'awaiting_approval', 'completed', 'unverified', 'rejected', 'failed', 'cancelled'] as const;

/** Statuses a run ends in with an answer: what it answered is stored as its result. */
export const ANSWERED_STATUSES: readonly RunStatus[] = ['completed', 'unverified'];

export type RunStatus = (typeof RUN_STATUSES)[number];

export interface RunRecord {
  readonly id: string;
  readonly goal: string;
  readonly status: RunStatus;
  readonly planHash: string;
  /** The planning result needed to resume (request, explain, graph JSON). */
  readonly plan: unknown;
  readonly result?: unknown;
  readonly error?: string;
  readonly user: string;
  readonly createdAt: string;
  readonly updatedAt: string;
  readonly nodeOutcomes: ReadonlyMap<string, NodeOutcome>;
  readonly skipped: readonly string[];
  readonly decisions: ReadonlyMap<string, ApprovalDecision>;
  readonly pendingNodeId?: string;
  /** The process instance executing the run while it is `running`. */
  readonly owner?: string;
}

export interface ApprovalDecision {
  readonly nodeId: string;
  readonly decision: 'approved' | 'rejected';
  readonly by: string;
  readonly comment: string;
  readonly at: string;
  /** The role the gate required of whoever decided it (recorded in the audit row). */
  readonly requiredRole?: string;
}

export interface RunSummary {
  readonly id: string;
  readonly goal: string;
  readonly status: RunStatus;
  readonly planHash: string;
  readonly user: string;
  readonly costUsd: number;
  readonly latencySeconds: number;
  readonly createdAt: string;
  /** The approval gate a paused run waits at (only while status is awaiting_approval). */
  readonly pendingNodeId?: string;
  readonly updatedAt?: string;
}

/** Filters for listing runs; every one is optional and they combine with AND. */
export interface RunListOptions {
  readonly limit: number;
  /** Rows to skip (page × limit) for offset pagination. */
  readonly offset?: number;
  readonly status?: RunStatus;
  /** Case-insensitive substring of the goal or the run id. */
  readonly search?: string;
  /** Exact user name. */
  readonly user?: string;
  /** ISO-8601 bounds on createdAt: from inclusive, to exclusive. */
  readonly from?: string;
  readonly to?: string;
}

/** One row of the append-only approval audit log, with the goal of the run it decided as it was then. */
export interface ApprovalAuditEntry extends ApprovalDecision {
  readonly id: number;
  readonly runId: string;
  readonly goal: string;
  /** Who started the run. */
  readonly runUser: string;
  /** This row's link in the hash chain (see `verifyDecisions`). */
  readonly rowHash: string;
}

/** The result of walking the audit log's hash chain oldest first. */
export interface AuditVerification {
  readonly rows: number;
  /** True when every row links to the one before it and its fields still match its hash. */
  readonly intact: boolean;
  /** The newest row's hash: record it elsewhere to notice the whole chain being recomputed. */
  readonly head: string;
  readonly problems: readonly { readonly id: number; readonly problem: string }[];
}

/** What setStatus writes with the status. */
export interface RunStatusUpdate {
  readonly result?: unknown;
  readonly error?: string;
  readonly pendingNodeId?: string | null;
  readonly owner?: string;
  readonly onlyIf?: readonly RunStatus[];
  /** With onlyIf: also only while this owner holds the run (a peer that took it over keeps it). */
  readonly onlyOwner?: string;
}

/** One node's outcome as saveNodeOutcomes writes it. */
export interface SavedNodeOutcome {
  readonly nodeId: string;
  readonly outcome: NodeOutcome;
  readonly attempts: number;
}

/** Persistence of runs, node outcomes and approval decisions. */
export interface RunStorePlugin {
  readonly contract: typeof RUN_STORE_CONTRACT;
  /** `status` defaults to `running` (executed here); `queued` leaves it to a worker. */
  createRun(run: { readonly id: string; readonly goal: string; readonly planHash: string; readonly plan: unknown; readonly user: string; readonly owner?: string; readonly status?: 'running' | 'queued' }): Promise<void>;
  saveNodeOutcome(runId: string, nodeId: string, outcome: NodeOutcome, attempts: number): Promise<void>;
  /**
   * Several outcomes of one run in one write, kept in the order given (a resumed run compensates in
   * completion order), with the nodes `skipped` meanwhile (branches not taken) in the same write.
   * Optional: without it each is saved, and each skip marked, on its own.
   */
  saveNodeOutcomes?(runId: string, outcomes: readonly SavedNodeOutcome[], skipped?: readonly string[]): Promise<void>;
  markSkipped(runId: string, nodeId: string): Promise<void>;
  /**
   * `owner` (with status `running`) records the process executing the run and starts its heartbeat;
   * any other status releases the owner. `onlyIf` makes the write conditional on the current status
   * and reports whether it happened (a cancel never overwrites a finished run, nor a finish a cancel).
   */
  setStatus(runId: string, status: RunStatus, fields?: RunStatusUpdate): Promise<boolean | void>;
  /**
   * setStatus with a run's last node outcomes and skips (as saveNodeOutcomes writes them) in the
   * same write, saved whatever `onlyIf` decides about the status; the run's totals include them.
   * One write where a finishing run made two. Optional: without it the outcomes are saved first.
   */
  setStatusWithOutcomes?(runId: string, status: RunStatus, fields: RunStatusUpdate, outcomes: readonly SavedNodeOutcome[], skipped?: readonly string[]): Promise<boolean | void>;
  /**
   * Refreshes the heartbeat of every running run `owner` executes, and returns those of `runIds`
   * it no longer owns running (cancelled elsewhere, or claimed by another process after its heartbeat
   * went stale): the caller stops executing them. Optional: stores without it cannot recover orphans.
   */
  heartbeat?(owner: string, runIds: readonly string[]): Promise<readonly string[]>;
  /**
   * Takes over running runs whose owner is gone: another owner (or none) whose heartbeat is older
   * than `staleAfterMs` by the database's clock (app servers' clocks may disagree). Atomic, so two
   * processes never claim the same run. Also takes over, as `running`, a run still paused at a gate
   * whose decision was recorded longer than `staleAfterMs` ago (its decider died before resuming it).
   * Returns their ids.
   */
  claimOrphans?(owner: string, staleAfterMs: number): Promise<readonly string[]>;
  /**
   * Marks `owner` alive for as long as this process lives, independently of its event loop: a
   * process whose loop is stalled by a CPU-bound node misses its heartbeats but keeps this mark,
   * and `claimOrphans` passes over a run whose owner holds it. The mark goes when the process dies
   * (its database session ends). Optional: a store without it judges owners by heartbeat alone.
   */
  markOwnerAlive?(owner: string): Promise<OwnerAliveMark>;
  /** Records a decision once; a second decision on the same gate is a CONFLICT. Also appends to the audit log. */
  recordDecision(runId: string, decision: ApprovalDecision): Promise<void>;
  loadRun(runId: string): Promise<RunRecord | undefined>;
  listRuns(options: RunListOptions): Promise<readonly RunSummary[]>;
  /** The approval audit log, newest first; optional so stores without an audit table still conform. */
  listDecisions?(options: { readonly limit: number; readonly offset?: number; readonly runId?: string }): Promise<readonly ApprovalAuditEntry[]>;
  /** US dollars of recorded cost of `user`'s runs created at or after `since` (ISO-8601); the daily spend limit reads it. */
  spendSince?(user: string, since: string): Promise<number>;
  /** Checks the audit log's hash chain; optional like listDecisions. */
  verifyDecisions?(): Promise<AuditVerification>;
}

/** See RunStorePlugin.markOwnerAlive. */
export interface OwnerAliveMark {
  /** Re-takes the mark when its session was lost (the server restarted); false when it cannot now. */
  refresh(): Promise<boolean>;
  release(): Promise<void>;
}
