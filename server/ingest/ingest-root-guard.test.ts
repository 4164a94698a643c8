import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { confineIngestPath } from './ingest-root-guard';

let base: string;
let root: string;
let outside: string;

beforeAll(() => {
  base = mkdtempSync(join(tmpdir(), 'ingest-root-guard-'));
  root = join(base, 'allowed');
  outside = join(base, 'private');
  mkdirSync(join(root, 'runbooks'), { recursive: true });
  mkdirSync(join(root, 'repo', '.git'), { recursive: true });
  mkdirSync(outside);
  writeFileSync(join(root, 'runbooks', 'rollback.md'), '# Rollback\n');
  writeFileSync(join(root, '.env'), 'TOKEN=1\n');
  writeFileSync(join(outside, 'id_rsa'), 'PRIVATE\n');
  symlinkSync(outside, join(root, 'escape'));
  symlinkSync(join(root, '.env'), join(root, 'visible-env.md'));
  symlinkSync(root, join(base, 'linked-root'));
});

afterAll(() => rmSync(base, { recursive: true, force: true }));

const refusal = (path: string, roots: readonly string[] = [root]) =>
  confineIngestPath(path, roots).then(
    () => expect.unreachable(`${path} should be refused`),
    (error: Error & { code?: string; field?: string }) => error,
  );

describe('confineIngestPath', () => {
  it('is disabled when no root is configured, and says how to enable it or upload instead', async () => {
    const error = await refusal(join(root, 'runbooks'), []);
    expect(error).toMatchObject({ code: 'INVALID_INPUT', field: 'path' });
    expect(error.message).toMatch(/disabled.*ingest\.allowed_roots.*upload/);
  });

  it('returns the real path of a folder or file below a root', async () => {
    await expect(confineIngestPath(join(root, 'runbooks'), [root])).resolves.toMatch(/allowed\/runbooks$/);
    await expect(confineIngestPath(join(root, 'runbooks', '..', 'runbooks', 'rollback.md'), [root])).resolves.toMatch(/rollback\.md$/);
  });

  it('refuses a path outside every root the same way whether or not it exists', async () => {
    const existing = await refusal(join(outside, 'id_rsa'));
    const missing = await refusal(join(outside, 'no-such-file'));
    expect(existing.message).toMatch(/outside the folders server-path ingest may read/);
    expect(missing.message.replace('no-such-file', 'id_rsa')).toBe(existing.message);
    expect((await refusal('/etc/passwd')).message).toMatch(/outside/);
    expect((await refusal(`${root}/../private/id_rsa`)).message).toMatch(/outside/);
  });

  it('refuses a symbolic link that leads out of the root, or to a hidden file inside it', async () => {
    expect((await refusal(join(root, 'escape'))).message).toMatch(/leads outside ingest\.allowed_roots through a symbolic link/);
    expect((await refusal(join(root, 'escape', 'id_rsa'))).message).toMatch(/symbolic link/);
    expect((await refusal(join(root, 'visible-env.md'))).message).toMatch(/hidden entry "\.env"/);
  });

  it('refuses hidden entries (.git, .env) and relative paths', async () => {
    expect((await refusal(join(root, 'repo', '.git'))).message).toMatch(/hidden entry "\.git"/);
    expect((await refusal(join(root, '.env'))).message).toMatch(/hidden entry "\.env"/);
    expect((await refusal('runbooks')).message).toMatch(/not an absolute path/);
  });

  it('refuses a configured root that is a symbolic link (whoever can swap the link moves the root)', async () => {
    const error = await refusal(join(base, 'linked-root', 'runbooks'), [join(base, 'linked-root')]);
    expect(error).toMatchObject({ code: 'INVALID_CONFIG', field: 'ingest.allowed_roots' });
    expect(error.message).toMatch(/symbolic link/);
  });
});
