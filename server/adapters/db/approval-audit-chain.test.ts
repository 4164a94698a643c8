/**
 * The audit chain's encoding, and migration 0017's SQL copy of it: rows decided before the chain
 * existed are chained by the migration, and `verify` (TypeScript) must accept what SQL wrote.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../../db/client';
import { defaultMigrationsFolder, migrateDatabase } from '../../../db/migrate';
import { auditRowHash, verifyAuditChain } from './approval-audit-chain';
import { PgRunStore } from './pg-run-store';

const row = { runId: 'run-1', nodeId: 'approve', decision: 'approved', decidedBy: 'lead', comment: 'ok', decidedAt: '2026-01-02T03:04:05.000Z', goal: 'g', runUser: 'ana', requiredRole: 'approver' };
const root = mkdtempSync(path.join(tmpdir(), 'cr-audit-chain-'));

afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('auditRowHash', () => {
  it('changes with every field and with the previous hash, and cannot be fooled by moving text between fields', () => {
    const base = auditRowHash('', row);
    expect(base).toMatch(/^[0-9a-f]{64}$/);
    for (const field of Object.keys(row) as (keyof typeof row)[]) expect(auditRowHash('', { ...row, [field]: `${row[field]}x` }), field).not.toBe(base);
    expect(auditRowHash('a', row)).not.toBe(base);
    // Without length prefixes "ok" + "g" and "o" + "kg" would encode alike.
    expect(auditRowHash('', { ...row, comment: 'o', goal: 'kg' })).not.toBe(base);
  });

  it('verifies a chain it built and names the first row whose link breaks', () => {
    const first = { ...row, id: 1, prevHash: '', rowHash: auditRowHash('', row) };
    const secondFields = { ...row, nodeId: 'gate-2' };
    const second = { ...secondFields, id: 2, prevHash: first.rowHash, rowHash: auditRowHash(first.rowHash, secondFields) };
    expect(verifyAuditChain([first, second])).toEqual({ rows: 2, intact: true, head: second.rowHash, problems: [] });
    expect(verifyAuditChain([second]).problems.map((problem) => problem.id)).toEqual([2]);
  });
});

describe('migration 0017 chains rows written before it', () => {
  it('produces hashes the TypeScript verifier accepts, with each goal copied from its run', async () => {
    // The migrations up to 0015 only: the schema as it was before the chain.
    const before = path.join(root, 'before');
    cpSync(defaultMigrationsFolder(), before, { recursive: true });
    const journalFile = path.join(before, 'meta', '_journal.json');
    const journal = JSON.parse(readFileSync(journalFile, 'utf8')) as { entries: { tag: string }[] };
    journal.entries = journal.entries.filter((entry) => entry.tag < '0016');
    writeFileSync(journalFile, JSON.stringify(journal));
    const database = await openDatabase({ dataDir: path.join(root, 'pglite') });
    try {
      await migrateDatabase(database, { migrationsFolder: before });
      await database.exec(`INSERT INTO runs (id, goal, status, plan_hash, plan, user_name) VALUES
          ('run-a', 'Roll back checkout-api — ünïcode', 'completed', 'h', 'null', 'ana'), ('run-b', 'Delete the replica set', 'rejected', 'h', 'null', 'bo');
        INSERT INTO approval_audit (run_id, node_id, decision, decided_by, comment, decided_at) VALUES
          ('run-a', 'approve', 'approved', 'lead', 'fine: 1:2', '2026-01-02T03:04:05.123Z'),
          ('run-b', 'approve', 'rejected', 'lead', '', '2026-01-03T00:00:00Z');`);
      await migrateDatabase(database);
      const store = new PgRunStore(database);
      expect(await store.verifyDecisions()).toMatchObject({ rows: 2, intact: true });
      expect((await store.listDecisions({ limit: 5 })).map((entry) => [entry.goal, entry.runUser, entry.requiredRole])).toEqual([
        ['Delete the replica set', 'bo', 'approver'],
        ['Roll back checkout-api — ünïcode', 'ana', 'approver'],
      ]);
      // New rows continue the migrated chain.
      await database.query(sql`INSERT INTO runs (id, goal, status, plan_hash, plan, user_name) VALUES ('run-c', 'c', 'running', 'h', 'null', 'cy')`);
      await store.recordDecision('run-c', { nodeId: 'approve', decision: 'approved', by: 'lead', comment: '', at: new Date().toISOString(), requiredRole: 'approver' });
      expect(await store.verifyDecisions()).toMatchObject({ rows: 3, intact: true });
    } finally {
      await database.close();
    }
  });
});
