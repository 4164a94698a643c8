/**
 * Issue 12, finding 2 — "any operator can make the server read its own files". Through tRPC on the
 * real runtime (embedded PGlite): server-path ingest is an admin's, below ingest.allowed_roots only;
 * operators upload; re-ingesting an existing source is an admin's and keeps it sensitive; no
 * refusal quotes a file's content or lists a folder.
 */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TRPCError } from '@trpc/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCaller } from '../api/root-router';
import type { Principal } from '../runtime/types';
import { openRuntimeFixture, type RuntimeFixture } from '../testing/runtime-fixture';

const SECRET = 'SECRET-PAYLOAD-7d1f';
const ADMIN: Principal = { user: 'root@example.com', roles: ['admin'] };
const OPERATOR: Principal = { user: 'ada@example.com', roles: ['operator'] };

let fixture: RuntimeFixture;
let base: string;
let allowed: string;

const callerAs = (principal: Principal) => createCaller({ runtime: async () => fixture.runtime, principal });
const failure = (call: Promise<unknown>) =>
  call.then(
    () => expect.unreachable('the call should be refused'),
    (error: TRPCError) => error,
  );
const upload = (files: Record<string, string | Buffer>) =>
  Object.entries(files).map(([path, content]) => ({ path, contentBase64: Buffer.from(content).toString('base64') }));

beforeAll(async () => {
  base = mkdtempSync(join(tmpdir(), 'security-ingest-'));
  allowed = join(base, 'allowed');
  mkdirSync(join(allowed, 'notes'), { recursive: true });
  mkdirSync(join(base, 'private'));
  writeFileSync(join(base, 'private', 'credentials.md'), `# Credentials\n\n${SECRET}\n`);
  writeFileSync(join(allowed, 'notes', 'runbook.md'), '# Rollback\n\nRoll back with kubectl rollout undo.\n');
  writeFileSync(join(allowed, 'notes', 'export.md'), Buffer.concat([Buffer.from('\ufeff', 'utf16le'), Buffer.from(SECRET, 'utf16le')]));
  writeFileSync(join(allowed, 'notes', 'archive.zip'), SECRET);
  symlinkSync(join(base, 'private'), join(allowed, 'private-link'));
  fixture = await openRuntimeFixture({ config: { ingest: { allowed_roots: [allowed] }, demo: { load_on_start: false } } });
});

afterAll(async () => {
  await fixture?.close();
  rmSync(base, { recursive: true, force: true });
});

describe('server-path ingest (runtime.ingest)', () => {
  it('refuses an operator (it was open to every operator)', async () => {
    const error = await failure(callerAs(OPERATOR).runtime.ingest({ path: join(base, 'private'), source: 'stolen' }));
    expect(error).toMatchObject({ code: 'FORBIDDEN' });
    expect((await fixture.runtime.sources()).map((source) => source.name)).not.toContain('stolen');
  });

  it('refuses an admin outside ingest.allowed_roots and through a symbolic link out of it, without content', async () => {
    for (const path of [join(base, 'private'), join(allowed, 'private-link'), '/etc/passwd']) {
      const error = await failure(callerAs(ADMIN).runtime.ingest({ path, source: 'stolen' }));
      expect(error, path).toMatchObject({ code: 'BAD_REQUEST' });
      expect(JSON.stringify({ message: error.message, cause: error.cause })).not.toContain(SECRET);
    }
    expect((await fixture.runtime.sources()).map((source) => source.name)).not.toContain('stolen');
  });

  it('ingests an admin folder below a root and reports binary and unsupported files by reason, never content', async () => {
    const report = await callerAs(ADMIN).runtime.ingest({ path: join(allowed, 'notes'), source: 'router-notes' });
    expect(report.sources).toEqual([expect.objectContaining({ source: 'router-notes', changed: true, documents: 1 })]);
    expect(report.skipped.map((entry) => entry.reason)).toEqual(['unsupported file type ".zip"', 'binary content (UTF-16 or UTF-32 (little-endian) text; save it as UTF-8)']);
    expect(JSON.stringify(report)).not.toContain(SECRET);
  });
});

describe('upload (runtime.upload)', () => {
  it('lets an operator create a new source from uploaded files, each checked for binary content', async () => {
    const report = await callerAs(OPERATOR).runtime.upload({ source: 'ada-notes', files: upload({ 'runbooks/restart.md': '# Restart\n\nRestart the pod.\n', 'dump.md': Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0, 0, 0]) }) });
    expect(report.sources).toEqual([expect.objectContaining({ source: 'ada-notes', changed: true, documents: 1 })]);
    expect(report.skipped).toEqual([{ path: 'dump.md', reason: expect.stringMatching(/^binary content/) }]);
  });

  it('refuses an operator a new version of an existing source, and writes nothing', async () => {
    const before = await fixture.count('source_versions');
    const error = await failure(callerAs(OPERATOR).runtime.upload({ source: 'ada-notes', files: upload({ 'restart.md': '# Restart\n\nChanged.\n' }) }));
    expect(error).toMatchObject({ code: 'FORBIDDEN', message: expect.stringMatching(/ada-notes already exists.*admin/) });
    expect(await fixture.count('source_versions')).toBe(before);
  });

  it("lets an admin re-ingest an existing sensitive source, which stays sensitive", async () => {
    await fixture.plugins.store.ingest({ name: 'payroll', kind: 'docs', sensitive: true }, [{ uri: 'pay.md', ordinal: 0, title: 'pay', text: 'Paid monthly.', tokens: 2 }], 'payroll-1');
    const report = await callerAs(ADMIN).runtime.upload({ source: 'payroll', files: upload({ 'pay.md': '# Pay\n\nPaid twice a month.\n' }) });
    expect(report.sources[0]).toMatchObject({ source: 'payroll', changed: true });
    expect((await fixture.runtime.sources()).find((source) => source.name === 'payroll')).toMatchObject({ sensitive: true });
  });

  it('names the file and the problem when a file cannot be parsed, never its content', async () => {
    const error = await failure(callerAs(OPERATOR).runtime.upload({ source: 'bad-events', files: upload({ 'cluster-events.json': `[{"involvedObject": "${SECRET}"` }) }));
    expect(error).toMatchObject({ code: 'BAD_REQUEST', message: expect.stringContaining('cluster-events.json') });
    expect(JSON.stringify({ message: error.message, cause: error.cause })).not.toContain(SECRET);
  });

  it('refuses upload paths that climb out, are absolute or hidden, naming the field', async () => {
    for (const path of ['../escape.md', '/etc/motd.md', 'notes/.env.md']) {
      const error = await failure(callerAs(OPERATOR).runtime.upload({ source: 'paths', files: upload({ [path]: '# x\n\ny\n' }) }));
      expect(error, path).toMatchObject({ code: 'BAD_REQUEST', message: expect.stringMatching(/^files\.0\.path: /) });
    }
  });
});
