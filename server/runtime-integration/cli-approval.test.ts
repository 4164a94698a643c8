/**
 * Issue 12, finding 7 at the command line: `approve` decides as an account that signs in (its
 * password in CONTEXT_RUNTIME_PASSWORD), not as whatever `--by` says; `audit verify` walks the
 * log's hash chain and exits 3 once a row was rewritten. Child processes, as a user runs them.
 */
import { execFile } from 'node:child_process';
import { rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../db/client';
import { UserStore } from '../auth/user-store';
import { openRuntimeFixture, type RuntimeFixture } from '../testing/runtime-fixture';

const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));
const BIN = fileURLToPath(new URL('../../bin/context-runtime.mjs', import.meta.url));
const HIGH_RISK_GOAL = 'Roll back the production deployment of checkout-api and delete the failed replica set';
const PASSWORD = 'correct horse battery';

let fixture: RuntimeFixture;
let runId: string;

function cli(args: readonly string[], password?: string): Promise<{ code: number; stdout: string; stderr: string }> {
  const env: NodeJS.ProcessEnv = { ...process.env, CONTEXT_RUNTIME_DATA_DIR: fixture.dataDir };
  for (const name of ['DATABASE_URL', 'CONTEXT_RUNTIME_CONFIG', 'CONTEXT_RUNTIME_DEBUG', 'NODE_OPTIONS', 'CONTEXT_RUNTIME_PASSWORD']) delete env[name];
  if (password !== undefined) env.CONTEXT_RUNTIME_PASSWORD = password;
  return new Promise((resolve) => {
    execFile(process.execPath, [BIN, ...args], { cwd: REPO_ROOT, env, timeout: 120_000 }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : -1) : 0, stdout, stderr });
    });
  });
}

describe('CLI approval and audit verify', { timeout: 300_000 }, () => {
  beforeAll(async () => {
    fixture = await openRuntimeFixture();
    await new UserStore(fixture.database).create({ email: 'alice@example.com', password: PASSWORD, roles: ['approver'] });
    runId = (await fixture.runtime.run({ goal: HIGH_RISK_GOAL, principal: { user: 'ops@example.com', roles: ['operator'] } })).runId;
    // The CLI opens the data directory itself: release it.
    await fixture.close({ remove: false });
  });

  afterAll(() => {
    if (fixture) rmSync(fixture.root, { recursive: true, force: true });
  });

  it('refuses a decision by a bare name or a wrong password, then decides as the signed-in account', async () => {
    const bare = await cli(['approve', runId, 'approve', '--decision', 'approved', '--by', 'alice@example.com']);
    expect(bare.code).toBe(2);
    expect(bare.stderr).toContain('set CONTEXT_RUNTIME_PASSWORD to the password of alice@example.com');
    const wrong = await cli(['approve', runId, 'approve', '--decision', 'approved', '--by', 'alice@example.com'], 'not the password');
    expect([wrong.code, wrong.stderr.trim()]).toEqual([2, 'context-runtime: alice@example.com: wrong email or password, or the account is disabled']);
    const approved = await cli(['approve', runId, 'approve', '--decision', 'approved', '--by', 'alice@example.com', '--json'], PASSWORD);
    expect(approved.code, approved.stderr).toBe(0);
    expect(JSON.parse(approved.stdout)).toMatchObject({ runId, status: 'completed' });
  });

  it('verifies the chain, and exits 3 naming the row once the owner rewrote it', async () => {
    const intact = await cli(['audit', 'verify']);
    expect(intact.code, intact.stderr).toBe(0);
    expect(intact.stdout).toMatch(/^approval log intact: 1 rows chained\nhead [0-9a-f]{64}\n$/);
    const database = await openDatabase({ dataDir: fixture.dataDir });
    await database.exec(`ALTER TABLE approval_audit DISABLE TRIGGER approval_audit_no_rewrite;
      UPDATE approval_audit SET decided_by = 'mallory@example.com';
      ALTER TABLE approval_audit ENABLE TRIGGER approval_audit_no_rewrite;`);
    await database.close();
    const broken = await cli(['audit', 'verify']);
    expect(broken.code).toBe(3);
    expect(broken.stdout).toMatch(/approval log BROKEN: 1 problem\(s\) in 1 rows\n {2}row \d+: its fields no longer match its hash/);
  });
});
