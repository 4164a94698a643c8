import { and, desc, eq, gte, ilike, inArray, isNull, lt, ne, or, sql, type SQL } from 'drizzle-orm';
import type { Database } from '../../../db/client';
import { approvalAudit, runNodes, runPlanBodies, runs } from '../../../db/schema';
import {
  RUN_STORE_CONTRACT,
  type ApprovalAuditEntry,
  type ApprovalDecision,
  type AuditVerification,
  type OwnerAliveMark,
  type RunListOptions,
  type RunRecord,
  type RunStatus,
  type RunStatusUpdate,
  type RunStorePlugin,
  type RunSummary,
  type SavedNodeOutcome,
} from '../../runtime/contracts/run-store';
import type { NodeOutcome } from '../../runtime/contracts/scheduler';
import { ContextRuntimeError, invalidInput } from '../../runtime/errors';
import { markOwnerAlive, ownerHoldsAliveMark } from './owner-alive-lock';
import { listApprovalDecisions, recordApprovalDecision, verifyApprovalDecisions, type ApprovalListOptions } from './pg-approval-audit';
import { runNotFound as notFound } from './run-not-found';
import { jsonRowsInsert } from './json-rows-insert';
import { compactOutcome, restoreOutcomes, type StoredChunks } from './outcome-passages';
import { joinPlan, splitPlan } from './run-plan-body';
import { chunkRowCacheOf } from '../retrievers/chunk-row-cache';

/** Plan body hashes remembered as stored; one per distinct plan-cache entry in use is plenty. */
const REMEMBERED_BODIES = 4096;

export interface RunStatusFields extends RunStatusUpdate {
  /** Measured totals; when absent they are summed from the saved node outcomes. */
  readonly costUsd?: number;
  readonly latencySeconds?: number;
}

/**
 * Runs, node outcomes and approval decisions in Postgres: a paused run resumes after a restart.
 * Outcomes keep their passages as chunk references, read back on load (outcome-passages.ts).
 */
export class PgRunStore implements RunStorePlugin {
  readonly contract = RUN_STORE_CONTRACT;
  /** Plan bodies this store wrote or saw written: a run served from the same cache entry sends only its hash. */
  private readonly storedBodies = new Set<string>();

  constructor(private readonly database: Database) {}

  /** Chunks through the retrievers' cache: a run's passages were just read through it, so saving reads nothing. */
  private readonly chunkTexts: StoredChunks = async (chunkIds) => {
    const found = await chunkRowCacheOf(this.database).chunks([...new Set(chunkIds)]);
    return new Map(
      [...found].map(([id, chunk]) => [
        id,
        { text: chunk.body, sourceName: chunk.sourceName, sourceKind: chunk.sourceKind, sourceVersionId: chunk.versionId, title: chunk.title, ...(chunk.locator !== null ? { locator: chunk.locator } : {}), tokens: chunk.tokens },
      ]),
    );
  };

  async createRun(run: { readonly id: string; readonly goal: string; readonly planHash: string; readonly plan: unknown; readonly user: string; readonly owner?: string; readonly status?: 'running' | 'queued' }): Promise<void> {
    const status = run.status ?? 'running';
    // A queued run has no owner yet: the worker that claims it becomes one.
    const owned = run.owner !== undefined && status === 'running';
    const { rest, body } = splitPlan(run.plan);
    const insert = async (sendBody: boolean) => {
      // The body and the run in one statement: a run never points at a body that was not written.
      const bodyRow = body && sendBody ? sql`insert into ${runPlanBodies} (hash, body) values (${body.hash}, ${body.json}::jsonb) on conflict do nothing` : sql`select 1`;
      return this.database.query<{ id: string }>(sql`
        with body as (${bodyRow})
        insert into ${runs} (id, goal, status, plan_hash, plan, plan_body_hash, user_name, owner, heartbeat_at)
        values (${run.id}, ${run.goal}, ${status}, ${run.planHash}, ${JSON.stringify(rest ?? null)}::jsonb, ${body?.hash ?? null}, ${run.user},
                ${owned ? run.owner! : null}, ${owned ? sql`now()` : null})
        on conflict do nothing returning id`);
    };
    const known = body !== undefined && this.storedBodies.has(body.hash);
    let inserted: readonly { id: string }[];
    try {
      inserted = await insert(!known);
    } catch (error) {
      // A body this process remembered, or found there, was deleted since (retention of the runs that held it): write it again.
      if (!body || !isForeignKeyViolation(error)) throw error;
      this.storedBodies.delete(body.hash);
      inserted = await insert(true);
    }
    if (body) this.rememberBody(body.hash);
    if (inserted.length === 0) throw new ContextRuntimeError('CONFLICT', `run ${run.id} already exists`, { details: { runId: run.id } });
  }

  private rememberBody(hash: string): void {
    this.storedBodies.delete(hash);
    this.storedBodies.add(hash);
    if (this.storedBodies.size > REMEMBERED_BODIES) this.storedBodies.delete(this.storedBodies.values().next().value!);
  }

  async saveNodeOutcome(runId: string, nodeId: string, outcome: NodeOutcome, attempts: number): Promise<void> {
    await this.upsertNode(runId, nodeId, 'done', await compactOutcome(outcome, this.chunkTexts), attempts);
  }

  async saveNodeOutcomes(runId: string, outcomes: readonly SavedNodeOutcome[], skipped: readonly string[] = []): Promise<void> {
    if (outcomes.length === 0 && skipped.length === 0) return;
    try {
      await this.database.query(this.outcomeUpsert(runId, await this.outcomeRows(outcomes, skipped)));
    } catch (error) {
      if (isForeignKeyViolation(error)) throw notFound(runId);
      throw error;
    }
  }

  /**
   * One statement where there were two: the outcomes as saveNodeOutcomes writes them, and the
   * status as setStatus does (bench:loc: the final outcome batch was its own statement on every
   * run). Both are data-modifying CTEs, run exactly once whatever the status condition decides; the
   * update reads the snapshot from before the insert, so its totals add this write's outcomes to
   * the saved ones it does not replace.
   */
  async setStatusWithOutcomes(runId: string, status: RunStatus, fields: RunStatusFields, outcomes: readonly SavedNodeOutcome[], skipped: readonly string[] = []): Promise<boolean> {
    if (outcomes.length === 0 && skipped.length === 0) return this.setStatus(runId, status, fields);
    const rows = await this.outcomeRows(outcomes, skipped);
    const replaced = rows.map((row) => row.nodeId);
    const total = (path: 'costUsd' | 'latencySeconds'): SQL => {
      const written = outcomes.reduce((sum, entry) => sum + (entry.outcome.actual[path] ?? 0), 0);
      return sql`${nodeTotalOf(runId, path, replaced)} + ${written}::float8`;
    };
    const update = this.statusUpdate(runId, status, fields, total);
    let updated: { updated: number }[];
    try {
      updated = await this.database.query<{ updated: number }>(sql`with saved as (${this.outcomeUpsert(runId, rows)}), changed as (${update.getSQL()}) select count(*)::int as updated from changed`);
    } catch (error) {
      if (isForeignKeyViolation(error)) throw notFound(runId);
      throw error;
    }
    if (Number(updated[0]?.updated ?? 0) > 0) return true;
    return this.statusNotWritten(runId, fields);
  }

  /** Rows of run_nodes for saved outcomes (passages by reference) and skips, in the order given. */
  private async outcomeRows(outcomes: readonly SavedNodeOutcome[], skipped: readonly string[]) {
    const compact = await Promise.all(outcomes.map(async (entry) => ({ ...entry, outcome: await compactOutcome(entry.outcome, this.chunkTexts) })));
    return [
      ...compact.map((entry) => ({ nodeId: entry.nodeId, status: 'done', outcome: entry.outcome as NodeOutcome | null, attempts: entry.attempts })),
      // A gate's untaken branch, one row each as markSkipped writes it, in the same statement (bench:loc: 7 of a run's 30 statements were skips).
      ...skipped.map((nodeId) => ({ nodeId, status: 'skipped', outcome: null, attempts: 0 })),
    ];
  }

  /** One JSON parameter for every row (json-rows-insert.ts): a saved outcome is a few KB of JSON, bound once rather than cell by cell. */
  private outcomeUpsert(runId: string, rows: readonly { nodeId: string; status: string; outcome: NodeOutcome | null; attempts: number }[]): SQL {
    return jsonRowsInsert(
      runNodes,
      rows.map((row) => ({ runId, ...row })),
      {
        // A microsecond apart, so loadRun's order by updated_at keeps the order given (the clock may not tick between rows).
        computed: { updatedAt: sql`clock_timestamp() + given_order * interval '1 microsecond'` },
        tail: sql`on conflict (run_id, node_id) do update set status = excluded.status, outcome = excluded.outcome, attempts = excluded.attempts, updated_at = excluded.updated_at`,
      },
    );
  }

  async markSkipped(runId: string, nodeId: string): Promise<void> {
    await this.upsertNode(runId, nodeId, 'skipped', null, 0);
  }

  async setStatus(runId: string, status: RunStatus, fields: RunStatusFields = {}): Promise<boolean> {
    const updated = await this.statusUpdate(runId, status, fields);
    if (updated.length > 0) return true;
    return this.statusNotWritten(runId, fields);
  }

  /** The status write; totals the caller did not measure come from `totalOf` (by default, the saved outcomes). */
  private statusUpdate(runId: string, status: RunStatus, fields: RunStatusFields, totalOf = (path: 'costUsd' | 'latencySeconds'): SQL => nodeTotalOf(runId, path)) {
    // Latency sums node latencies: execution time without the wait at an approval gate, an upper
    // bound on wall time when a wave ran in parallel. A caller that measured wall time passes it.
    return this.database.db
      .update(runs)
      .set({
        status,
        updatedAt: sql`now()`,
        costUsd: fields.costUsd ?? totalOf('costUsd'),
        latencySeconds: fields.latencySeconds ?? totalOf('latencySeconds'),
        ...(fields.result !== undefined ? { result: fields.result } : {}),
        ...(fields.error !== undefined ? { error: fields.error } : {}),
        ...(fields.pendingNodeId !== undefined ? { pendingNodeId: fields.pendingNodeId } : {}),
        // Only a running run has an owner: any other status lets go of it.
        ...(status === 'running' ? (fields.owner !== undefined ? { owner: fields.owner, heartbeatAt: sql`now()` } : {}) : { owner: null, heartbeatAt: null }),
      })
      .where(fields.onlyIf ? and(eq(runs.id, runId), inArray(runs.status, [...fields.onlyIf]), fields.onlyOwner !== undefined ? eq(runs.owner, fields.onlyOwner) : undefined) : eq(runs.id, runId))
      .returning({ id: runs.id });
  }

  /** A status write that changed no row: false when its condition kept it out, NOT_FOUND when there is no such run. */
  private async statusNotWritten(runId: string, fields: RunStatusFields): Promise<false> {
    if (fields.onlyIf && (await this.database.db.select({ id: runs.id }).from(runs).where(eq(runs.id, runId))).length > 0) return false;
    throw notFound(runId);
  }

  async heartbeat(owner: string, runIds: readonly string[]): Promise<readonly string[]> {
    const beating = await this.database.db
      .update(runs)
      .set({ heartbeatAt: sql`now()` })
      .where(and(eq(runs.owner, owner), eq(runs.status, 'running')))
      .returning({ id: runs.id });
    const owned = new Set(beating.map((row) => row.id));
    return runIds.filter((runId) => !owned.has(runId));
  }

  async claimOrphans(owner: string, staleAfterMs: number): Promise<readonly string[]> {
    if (!Number.isFinite(staleAfterMs) || staleAfterMs < 0) throw invalidInput('staleAfterMs', `expected a non-negative number of milliseconds, got ${staleAfterMs}`);
    const stale = sql`now() - make_interval(secs => ${staleAfterMs / 1000})`;
    // An owner still holding its alive mark is alive, however stale its heartbeat (a stalled event loop).
    const alive = this.database.reserveSession ? sql`not (${runs.owner} is not null and ${ownerHoldsAliveMark(runs.owner)})` : sql`true`;
    // One UPDATE … RETURNING: two processes sweeping at once each get a disjoint set.
    const claimed = await this.database.db
      .update(runs)
      .set({ owner, heartbeatAt: sql`now()` })
      .where(and(eq(runs.status, 'running'), or(isNull(runs.owner), ne(runs.owner, owner)), or(isNull(runs.heartbeatAt), lt(runs.heartbeatAt, stale)), alive))
      .returning({ id: runs.id });
    return [...claimed.map((row) => row.id), ...(await this.claimDecidedGates(owner, stale))];
  }

  /**
   * A run paused at a gate whose decision is recorded but which never left the gate: the process
   * that recorded the decision died before it resumed the run (approve() writes the decision, then
   * claims the run). Left alone it would wait forever, and approving again is a CONFLICT. The
   * decision's own time stands in for a heartbeat: the approving process claims within
   * milliseconds, so one older than staleAfterMs has no live process behind it.
   */
  private async claimDecidedGates(owner: string, stale: SQL): Promise<readonly string[]> {
    const decided = sql`exists (select 1 from ${approvalAudit} where ${approvalAudit.runId} = ${runs.id} and ${approvalAudit.nodeId} = ${runs.pendingNodeId} and ${approvalAudit.decidedAt} < ${stale})`;
    const claimed = await this.database.db
      .update(runs)
      .set({ status: 'running', pendingNodeId: null, owner, heartbeatAt: sql`now()`, updatedAt: sql`now()` })
      .where(and(eq(runs.status, 'awaiting_approval'), decided))
      .returning({ id: runs.id });
    return claimed.map((row) => row.id);
  }

  /** Only on a server: the embedded database has one process, whose orphans are all claimed at start. */
  get markOwnerAlive(): ((owner: string) => Promise<OwnerAliveMark>) | undefined {
    if (!this.database.reserveSession) return undefined;
    return (owner) => markOwnerAlive(this.database, owner);
  }

  async recordDecision(runId: string, decision: ApprovalDecision): Promise<void> {
    await recordApprovalDecision(this.database, runId, decision);
  }

  async loadRun(runId: string): Promise<RunRecord | undefined> {
    const [row] = await this.database.db.select({ run: runs, body: runPlanBodies.body }).from(runs).leftJoin(runPlanBodies, eq(runPlanBodies.hash, runs.planBodyHash)).where(eq(runs.id, runId));
    if (!row) return undefined;
    const run = row.run;
    const nodes = await this.database.db.select().from(runNodes).where(eq(runNodes.runId, runId)).orderBy(runNodes.updatedAt, runNodes.nodeId);
    const audit = await this.database.db.select().from(approvalAudit).where(eq(approvalAudit.runId, runId)).orderBy(approvalAudit.id);
    const nodeOutcomes = new Map<string, NodeOutcome>();
    const skipped: string[] = [];
    for (const node of nodes) {
      if (node.status === 'done') nodeOutcomes.set(node.nodeId, node.outcome as NodeOutcome);
      else skipped.push(node.nodeId);
    }
    const decisions = new Map<string, ApprovalDecision>(
      audit.map((row) => [
        row.nodeId,
        Object.freeze({ nodeId: row.nodeId, decision: row.decision as ApprovalDecision['decision'], by: row.decidedBy, comment: row.comment, at: row.decidedAt.toISOString() }),
      ]),
    );
    return Object.freeze({
      id: run.id,
      goal: run.goal,
      status: run.status as RunStatus,
      planHash: run.planHash,
      plan: joinPlan(run.plan, row.body),
      nodeOutcomes: await restoreOutcomes(nodeOutcomes, this.chunkTexts),
      ...(run.result !== null ? { result: run.result } : {}),
      ...(run.error !== null ? { error: run.error } : {}),
      user: run.userName,
      createdAt: run.createdAt.toISOString(),
      updatedAt: run.updatedAt.toISOString(),
      skipped: Object.freeze(skipped),
      decisions,
      ...(run.pendingNodeId !== null ? { pendingNodeId: run.pendingNodeId } : {}),
      ...(run.owner !== null ? { owner: run.owner } : {}),
    });
  }

  async listRuns(options: RunListOptions): Promise<readonly RunSummary[]> {
    const filters: SQL[] = [];
    if (options.status) filters.push(eq(runs.status, options.status));
    if (options.search?.trim()) {
      const pattern = `%${options.search.trim().replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
      filters.push(or(ilike(runs.goal, pattern), ilike(runs.id, pattern)) as SQL);
    }
    if (options.user?.trim()) filters.push(eq(runs.userName, options.user.trim()));
    if (options.from) filters.push(gte(runs.createdAt, timestampOf('from', options.from)));
    if (options.to) filters.push(lt(runs.createdAt, timestampOf('to', options.to)));
    const limit = Math.max(1, Math.min(Math.floor(options.limit) || 1, 1000));
    const offset = Math.max(0, Math.floor(options.offset ?? 0) || 0);
    // A summary's columns only: each row's plan is ~67 KB of JSON (bench:workers), and a worker's
    // sweep lists every queued run.
    const rows = await this.database.db
      .select({ id: runs.id, goal: runs.goal, status: runs.status, planHash: runs.planHash, userName: runs.userName, costUsd: runs.costUsd, latencySeconds: runs.latencySeconds, createdAt: runs.createdAt, updatedAt: runs.updatedAt, pendingNodeId: runs.pendingNodeId })
      .from(runs)
      .where(filters.length ? and(...filters) : undefined)
      .orderBy(desc(runs.createdAt), desc(runs.id))
      .limit(limit)
      .offset(offset);
    return Object.freeze(
      rows.map((run) =>
        Object.freeze({
          id: run.id,
          goal: run.goal,
          status: run.status as RunStatus,
          planHash: run.planHash,
          user: run.userName,
          costUsd: run.costUsd,
          latencySeconds: run.latencySeconds,
          createdAt: run.createdAt.toISOString(),
          updatedAt: run.updatedAt.toISOString(),
          ...(run.pendingNodeId !== null ? { pendingNodeId: run.pendingNodeId } : {}),
        }),
      ),
    );
  }

  async listDecisions(options: ApprovalListOptions): Promise<readonly ApprovalAuditEntry[]> {
    return listApprovalDecisions(this.database, options);
  }

  async spendSince(user: string, since: string): Promise<number> {
    const [row] = await this.database.db
      .select({ spent: sql<number>`coalesce(sum(${runs.costUsd}), 0)::float8` })
      .from(runs)
      .where(and(eq(runs.userName, user), gte(runs.createdAt, timestampOf('since', since))));
    return Number(row?.spent ?? 0);
  }

  async verifyDecisions(): Promise<AuditVerification> {
    return verifyApprovalDecisions(this.database);
  }

  private async upsertNode(runId: string, nodeId: string, status: 'done' | 'skipped', outcome: NodeOutcome | null, attempts: number): Promise<void> {
    try {
      await this.database.db
        .insert(runNodes)
        .values({ runId, nodeId, status, outcome, attempts })
        .onConflictDoUpdate({ target: [runNodes.runId, runNodes.nodeId], set: { status, outcome, attempts, updatedAt: sql`now()` } });
    } catch (error) {
      if (isForeignKeyViolation(error)) throw notFound(runId);
      throw error;
    }
  }
}

function timestampOf(field: 'from' | 'to' | 'since', value: string): Date {
  const parsed = new Date(value);
  if (Number.isNaN(parsed.getTime())) throw invalidInput(field, 'must be an ISO-8601 timestamp', { [field]: value });
  return parsed;
}

/** A total over the run's saved outcomes (`except` those a write in the same statement replaces). */
function nodeTotalOf(runId: string, path: 'costUsd' | 'latencySeconds', except: readonly string[] = []): SQL {
  const kept = except.length > 0 ? sql` and ${runNodes.nodeId} not in (select jsonb_array_elements_text(${JSON.stringify(except)}::jsonb))` : sql``;
  return sql`coalesce((select sum((${runNodes.outcome} -> 'actual' ->> ${path})::float8) from ${runNodes} where ${runNodes.runId} = ${runId} and ${runNodes.status} = 'done'${kept}), 0)`;
}

/** SQLSTATE 23503; drizzle wraps driver errors, so look at the cause too. */
function isForeignKeyViolation(error: unknown): boolean {
  for (let current: unknown = error; current; current = (current as { cause?: unknown }).cause) {
    if ((current as { code?: unknown }).code === '23503') return true;
  }
  return false;
}
