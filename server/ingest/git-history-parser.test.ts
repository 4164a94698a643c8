import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { materializeDemoGitRepo } from './demo-git-repo';
import { parseGitHistory, readGitHistory } from './git-history-parser';
import { runGit } from './git-command';
import { countWords } from './word-token-counter';

let workDir: string;
let repository: string;
beforeAll(async () => {
  workDir = await mkdtemp(join(tmpdir(), 'git-history-parser-'));
  repository = (await materializeDemoGitRepo(join(workDir, 'shop-deploy'))).path;
});
afterAll(async () => {
  await rm(workDir, { recursive: true, force: true });
});

describe('parseGitHistory', () => {
  it('makes one chunk per commit, newest first, with the message and the unified diff', async () => {
    const chunks = await parseGitHistory(repository, { countTokens: countWords });
    expect(chunks.map((chunk) => chunk.locator)).toEqual(['commit acaa5e7', 'commit aa9f295', 'commit 1d51f89', 'commit 48d4188', 'commit 254d1cc', 'commit 8e4ee22', 'commit fcc3fb3']);
    const limit = chunks[3];
    expect(limit.uri).toBe('commit 48d41880bf3eee1abd857898052a9410a6ea68b9');
    expect(limit.title).toBe('commit 48d4188: Lower checkout-api memory limit to 256Mi to cut cluster cost');
    expect(limit.text).toContain('Author: Carol Nguyen <carol.nguyen@shop.example>');
    expect(limit.text).toContain('    Over the last 7 days the average working set of checkout-api was 196Mi');
    expect(limit.text).toContain(' k8s/checkout-api/deployment.yaml | 4 ++--');
    expect(limit.text).toContain('-              memory: 512Mi\n+              memory: 256Mi');
    expect(limit.metadata).toMatchObject({ files: ['k8s/checkout-api/deployment.yaml'], truncated: false, author: 'Carol Nguyen' });
    expect(limit.tokens).toBe(countWords(limit.text));
  });

  it('truncates a large initial commit under the budget and says what was cut', async () => {
    const chunks = await parseGitHistory(repository, { countTokens: countWords, maxTokens: 200 });
    const initial = chunks[chunks.length - 1];
    expect(initial.tokens).toBeLessThanOrEqual(200);
    expect(initial.metadata).toMatchObject({ truncated: true });
    expect(initial.text).toContain('Add checkout-api manifests for production');
    expect(initial.text).toMatch(/\[… \d+ more diff lines of k8s\/checkout-api\/deployment\.yaml truncated\]|\[… diff of \d+ more file\(s\) omitted/);
    const full = (await readGitHistory(repository)).at(-1)!;
    expect(countWords(full.text)).toBeGreaterThan(200);
  });

  it('honours maxCommits and returns nothing for a repository without commits', async () => {
    expect(await readGitHistory(repository, { maxCommits: 2 })).toHaveLength(2);
    const empty = join(workDir, 'empty');
    await mkdir(empty);
    await runGit(['init', '--quiet'], { cwd: empty });
    expect(await readGitHistory(empty)).toEqual([]);
  });

  it('rejects a path that is not a git repository with INVALID_INPUT', async () => {
    const plain = join(workDir, 'plain');
    await mkdir(plain);
    await expect(parseGitHistory(plain, { countTokens: countWords })).rejects.toMatchObject({ code: 'INVALID_INPUT', field: 'path' });
    await expect(parseGitHistory(join(repository, 'k8s'), { countTokens: countWords })).rejects.toThrow(/folder inside the repository/);
    await expect(parseGitHistory(join(workDir, 'missing'), { countTokens: countWords })).rejects.toThrow(/is not a directory/);
  });
});
