import { mkdtemp, rm, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runGit } from './git-command';
import { materializeDemoGitRepo, toGitDate } from './demo-git-repo';

let workDir: string;
beforeAll(async () => {
  workDir = await mkdtemp(join(tmpdir(), 'demo-git-repo-'));
});
afterAll(async () => {
  await rm(workDir, { recursive: true, force: true });
});

describe('materializeDemoGitRepo', () => {
  it('builds the same commit SHAs in two separate directories', async () => {
    const first = await materializeDemoGitRepo(join(workDir, 'one'));
    const second = await materializeDemoGitRepo(join(workDir, 'two'));
    expect(second.commits.map((commit) => commit.sha)).toEqual(first.commits.map((commit) => commit.sha));
    expect(first.commits).toHaveLength(7);
    // Pinned: the deploy log in examples/demo-incident quotes these short SHAs.
    expect(first.commits.map((commit) => commit.sha.slice(0, 7))).toEqual(['fcc3fb3', '8e4ee22', '254d1cc', '48d4188', '1d51f89', 'aa9f295', 'acaa5e7']);
    const log = await runGit(['log', '--format=%h %an %aI %s'], { cwd: first.path });
    expect(log.split('\n')[3]).toBe('48d4188 Carol Nguyen 2025-06-02T18:41:00+02:00 Lower checkout-api memory limit to 256Mi to cut cluster cost');
    const diff = await runGit(['show', '--format=', '48d4188'], { cwd: first.path });
    expect(diff).toContain('-              memory: 512Mi\n+              memory: 256Mi');
  });

  it('rebuilds its own earlier output but refuses a foreign non-empty directory', async () => {
    const target = join(workDir, 'again');
    const before = await materializeDemoGitRepo(target);
    const after = await materializeDemoGitRepo(target);
    expect(after.head).toBe(before.head);
    const foreign = join(workDir, 'foreign');
    await mkdir(foreign);
    await writeFile(join(foreign, 'keep.txt'), 'precious');
    await expect(materializeDemoGitRepo(foreign)).rejects.toMatchObject({ code: 'INVALID_INPUT', field: 'targetDir' });
  });

  it('converts ISO dates with offsets to git raw dates', () => {
    expect(toGitDate('2025-06-02T18:41:00+02:00')).toBe('1748882460 +0200');
    expect(toGitDate('2025-06-03T09:30:00Z')).toBe('1748943000 +0000');
  });
});
