/**
 * The approval audit log in Postgres: each gate decision appended as a hash-chained row
 * (approval-audit-chain.ts), listed newest first, and the whole chain verified. PgRunStore's
 * decision methods delegate here.
 */
import { desc, eq, sql } from 'drizzle-orm';
import type { Database } from '../../../db/client';
import { approvalAudit, runs } from '../../../db/schema';
import type { ApprovalAuditEntry, ApprovalDecision, AuditVerification } from '../../runtime/contracts/run-store';
import { ContextRuntimeError, invalidInput } from '../../runtime/errors';
import { auditRowHash, verifyAuditChain } from './approval-audit-chain';
import { runNotFound as notFound } from './run-not-found';

export interface ApprovalListOptions {
  readonly limit: number;
  readonly offset?: number;
  readonly runId?: string;
}

export async function recordApprovalDecision(database: Database, runId: string, decision: ApprovalDecision): Promise<void> {
  const decidedAt = new Date(decision.at);
  if (Number.isNaN(decidedAt.getTime())) throw invalidInput('decision.at', 'must be an ISO-8601 timestamp', { at: decision.at });
  const inserted = await database.db.transaction(async (transaction) => {
    // One writer extends the chain at a time, or two rows would link to the same predecessor.
    // An advisory lock needs no privilege beyond INSERT (LOCK TABLE would need UPDATE).
    await transaction.execute(sql`select pg_advisory_xact_lock(hashtext('context-runtime:approval-audit-chain'))`);
    const [run] = await transaction.select({ goal: runs.goal, user: runs.userName }).from(runs).where(eq(runs.id, runId));
    if (!run) throw notFound(runId);
    const [last] = await transaction.select({ rowHash: approvalAudit.rowHash }).from(approvalAudit).orderBy(desc(approvalAudit.id)).limit(1);
    const prevHash = last?.rowHash ?? '';
    const row = {
      runId,
      nodeId: decision.nodeId,
      decision: decision.decision,
      decidedBy: decision.by,
      comment: decision.comment,
      decidedAt: decidedAt.toISOString(),
      goal: run.goal,
      runUser: run.user,
      requiredRole: decision.requiredRole ?? '',
    };
    return transaction
      .insert(approvalAudit)
      .values({ ...row, decidedAt, prevHash, rowHash: auditRowHash(prevHash, row) })
      .onConflictDoNothing()
      .returning({ id: approvalAudit.id });
  });
  if (inserted.length === 0) {
    throw new ContextRuntimeError('CONFLICT', `gate ${decision.nodeId} of run ${runId} already has a decision`, {
      field: 'nodeId',
      details: { runId, nodeId: decision.nodeId },
    });
  }
}

export async function listApprovalDecisions(database: Database, options: ApprovalListOptions): Promise<readonly ApprovalAuditEntry[]> {
  const limit = Math.max(1, Math.min(Math.floor(options.limit) || 1, 1000));
  // The goal is the row's own copy: a join on `runs` would show whatever that mutable row says now.
  const rows = await database.db
    .select()
    .from(approvalAudit)
    .where(options.runId ? eq(approvalAudit.runId, options.runId) : undefined)
    .orderBy(desc(approvalAudit.id))
    .limit(limit)
    .offset(Math.max(0, Math.floor(options.offset ?? 0) || 0));
  return Object.freeze(
    rows.map((audit) =>
      Object.freeze({
        id: audit.id,
        runId: audit.runId,
        goal: audit.goal,
        runUser: audit.runUser,
        nodeId: audit.nodeId,
        decision: audit.decision as ApprovalDecision['decision'],
        by: audit.decidedBy,
        comment: audit.comment,
        at: audit.decidedAt.toISOString(),
        requiredRole: audit.requiredRole,
        rowHash: audit.rowHash,
      }),
    ),
  );
}

export async function verifyApprovalDecisions(database: Database): Promise<AuditVerification> {
  const rows = await database.db.select().from(approvalAudit).orderBy(approvalAudit.id);
  return verifyAuditChain(rows.map((row) => ({ ...row, decidedAt: row.decidedAt.toISOString() })));
}
