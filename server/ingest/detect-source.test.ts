import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { detectSources } from './detect-source';
import { runGit } from './git-command';

let workDir: string;
const write = async (path: string, content: string) => {
  await mkdir(join(workDir, path, '..'), { recursive: true });
  await writeFile(join(workDir, path), content);
};

beforeAll(async () => {
  workDir = await mkdtemp(join(tmpdir(), 'detect-source-'));
  await write('mixed/README.md', '# Hi\n\ntext\n');
  await write('mixed/notes/today.txt', 'plain notes\n');
  await write('mixed/app.log', 'line\n');
  await write('mixed/k8s/dump.json', '[{"involvedObject":{"kind":"Pod","name":"p"},"reason":"X","message":"m"}]');
  await write('mixed/k8s/warning-events.json', 'not even json');
  await write('mixed/package.json', '{"name":"x"}');
  await write('mixed/metrics/cpu.csv', 'timestamp,metric,value\n');
  await write('mixed/logo.png', 'PNG');
  await write('mixed/node_modules/lib/README.md', '# vendored\n');
  await write('mixed/.cache/old.log', 'hidden\n');
  await write('repo/README.md', '# repo\n');
  await runGit(['init', '--quiet'], { cwd: join(workDir, 'repo') });
  await mkdir(join(workDir, 'empty'));
});
afterAll(async () => {
  await rm(workDir, { recursive: true, force: true });
});

describe('detectSources', () => {
  it('walks a plain folder, groups files by kind and skips vendored, hidden and unsupported files', async () => {
    const detected = await detectSources(join(workDir, 'mixed'));
    const groups = Object.fromEntries(detected.groups.map((group) => [group.kind, group.files.map((file) => file.relativePath)]));
    expect(groups).toEqual({
      docs: ['README.md', 'notes/today.txt'],
      logs: ['app.log'],
      events: ['k8s/dump.json', 'k8s/warning-events.json'],
      metrics: ['metrics/cpu.csv'],
    });
    expect(detected.skipped.map((entry) => [entry.path.slice(workDir.length + 1), entry.reason])).toEqual([
      ['mixed/.cache', 'hidden folder, not walked'],
      ['mixed/node_modules', 'dependency folder, not walked'],
      ['mixed/logo.png', 'unsupported file type ".png"'],
      ['mixed/package.json', 'JSON file is not a list of Kubernetes events'],
    ]);
  });

  it('reads a directory holding .git as one git source', async () => {
    const detected = await detectSources(join(workDir, 'repo'));
    expect(detected.groups).toEqual([{ kind: 'git', parser: 'git-history', files: [] }]);
  });

  it('classifies a single named file by extension, a named .json always as events', async () => {
    expect((await detectSources(join(workDir, 'mixed/app.log'))).groups).toEqual([{ kind: 'logs', parser: 'log', files: [{ path: join(workDir, 'mixed/app.log'), relativePath: 'app.log', bytes: 5 }] }]);
    expect((await detectSources(join(workDir, 'mixed/package.json'))).groups[0].kind).toBe('events');
  });

  it('rejects missing paths, unsupported files and folders with nothing to ingest', async () => {
    await expect(detectSources(join(workDir, 'nope'))).rejects.toMatchObject({ code: 'INVALID_INPUT', field: 'path' });
    await expect(detectSources(join(workDir, 'mixed/logo.png'))).rejects.toThrow(/nothing to ingest .*: 1 skipped \(1 unsupported file type "\.png"\)/);
    await expect(detectSources(join(workDir, 'empty'))).rejects.toThrow(/nothing to ingest/);
  });

  // Issue 12, finding 2: the refusal went back to a remote caller with the folder's file names in it.
  it('refuses a folder of unsupported files with counted reasons, never a listing of its names', async () => {
    await write('secret-names/payroll-2026.xlsx', 'x');
    await write('secret-names/.env', 'TOKEN=1');
    const refusal = await detectSources(join(workDir, 'secret-names')).then(
      () => expect.unreachable('a folder of unsupported files is refused'),
      (error: unknown) => error as Error & { details?: unknown },
    );
    expect(refusal.message).toMatch(/2 skipped \(1 hidden file, 1 unsupported file type "\.xlsx"\)/);
    expect(`${refusal.message} ${JSON.stringify(refusal.details)}`).not.toMatch(/payroll|\.env/);
  });
});
