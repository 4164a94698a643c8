/**
 * The hash chain over approval_audit. Privileges and the trigger stop the application role from
 * rewriting a row; the chain is what shows a rewrite by anyone else (the table's owner, a restored
 * backup): each row's hash covers the previous row's hash and every field of its own, so changing,
 * removing or reordering a row breaks every link after it.
 *
 * Encoding: each field as "<utf-8 byte length>:<value>\n", in CHAINED_FIELDS order, then sha256
 * (hex). Length-prefixing makes the encoding unambiguous whatever a comment contains; the same
 * encoding is written in SQL by migration 0017 for rows that predate the chain.
 */
import { createHash } from 'node:crypto';
import type { AuditVerification } from '../../runtime/contracts/run-store';

export interface ChainedAuditRow {
  readonly runId: string;
  readonly nodeId: string;
  readonly decision: string;
  readonly decidedBy: string;
  readonly comment: string;
  /** ISO-8601 with milliseconds, UTC ("2026-01-02T03:04:05.000Z"). */
  readonly decidedAt: string;
  readonly goal: string;
  readonly runUser: string;
  readonly requiredRole: string;
}

const CHAINED_FIELDS = ['runId', 'nodeId', 'decision', 'decidedBy', 'comment', 'decidedAt', 'goal', 'runUser', 'requiredRole'] as const;

export function auditRowHash(prevHash: string, row: ChainedAuditRow): string {
  const payload = [prevHash, ...CHAINED_FIELDS.map((field) => row[field])].map((value) => `${Buffer.byteLength(value, 'utf8')}:${value}\n`).join('');
  return createHash('sha256').update(payload, 'utf8').digest('hex');
}

/** Walks the rows oldest first and names every row whose link or hash does not hold. */
export function verifyAuditChain(rows: readonly (ChainedAuditRow & { readonly id: number; readonly prevHash: string; readonly rowHash: string })[]): AuditVerification {
  const problems: { id: number; problem: string }[] = [];
  let previous = '';
  for (const row of rows) {
    if (row.prevHash !== previous) problems.push({ id: row.id, problem: `links to ${abbreviate(row.prevHash)} but the row before it hashes to ${abbreviate(previous)} (a row was removed, inserted or reordered)` });
    if (auditRowHash(row.prevHash, row) !== row.rowHash) problems.push({ id: row.id, problem: 'its fields no longer match its hash (the row was changed)' });
    previous = row.rowHash;
  }
  return Object.freeze({ rows: rows.length, intact: problems.length === 0, head: previous, problems: Object.freeze(problems) });
}

const abbreviate = (hash: string) => (hash === '' ? '(start of log)' : hash.slice(0, 12));
