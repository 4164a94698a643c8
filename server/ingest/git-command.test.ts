import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GitCommandError, runGitBounded } from './git-command';

/**
 * A fake `git` first on PATH: `flood` writes 10 MB and then sleeps, `hang` writes nothing, `drip`
 * writes a line every 100 ms for a second. `exec` keeps each one a single process, so the signal
 * that ends it ends everything holding its pipes.
 */
const FAKE_GIT = `#!/bin/sh
case "$1" in
  flood) yes commit-line | head -c 10000000; exec sleep 30 ;;
  hang) exec sleep 30 ;;
  drip) for i in 1 2 3 4 5 6 7 8 9 10; do echo "line $i"; sleep 0.1; done ;;
esac
`;

let fakeBin: string;
let env: Record<string, string>;
beforeAll(async () => {
  fakeBin = await mkdtemp(join(tmpdir(), 'fake-git-'));
  await writeFile(join(fakeBin, 'git'), FAKE_GIT);
  await chmod(join(fakeBin, 'git'), 0o755);
  env = { PATH: `${fakeBin}:${process.env.PATH ?? ''}` };
});
afterAll(async () => {
  await rm(fakeBin, { recursive: true, force: true });
});

describe('runGitBounded', () => {
  it('cuts stdout at maxOutputBytes while it streams and stops git instead of waiting for the rest', async () => {
    const started = Date.now();
    const output = await runGitBounded(['flood'], { cwd: fakeBin, env, maxOutputBytes: 1000, timeoutMs: 20_000 });
    expect(output.truncated).toBe(true);
    expect(Buffer.byteLength(output.stdout)).toBe(1000);
    expect(output.stdout.startsWith('commit-line\ncommit-line\n')).toBe(true);
    // The fake sleeps 30 s after its output: returning early means git was stopped, not drained.
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('kills a git that goes silent for timeoutMs and says so', async () => {
    const started = Date.now();
    const error = await runGitBounded(['hang'], { cwd: fakeBin, env, timeoutMs: 300 }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(GitCommandError);
    expect(error).toMatchObject({ timedOut: true, message: expect.stringContaining('ingest.git_timeout_ms') });
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  // Issue 13, point 1: a cancelled or timed-out ingest does not wait out git's own idle timeout.
  it('kills git at once when the ingest stops (its signal fires)', async () => {
    const controller = new AbortController();
    const started = Date.now();
    const running = runGitBounded(['hang'], { cwd: fakeBin, env, timeoutMs: 20_000, signal: controller.signal }).catch((caught: unknown) => caught);
    setTimeout(() => controller.abort(), 200);
    expect(await running).toBeInstanceOf(GitCommandError);
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('lets a slow git that keeps writing finish (the timeout counts silence, not total time)', async () => {
    const output = await runGitBounded(['drip'], { cwd: fakeBin, env, timeoutMs: 600 });
    expect(output).toEqual({ stdout: Array.from({ length: 10 }, (_, index) => `line ${index + 1}\n`).join(''), truncated: false });
  });

  it('keeps output under the cap whole and reports a failing git with its exit code', async () => {
    const output = await runGitBounded(['--version'], { cwd: fakeBin, maxOutputBytes: 1000 });
    expect(output.truncated).toBe(false);
    expect(output.stdout).toMatch(/^git version /);
    await expect(runGitBounded(['rev-parse', '--verify', 'no-such-ref'], { cwd: tmpdir() })).rejects.toMatchObject({ name: 'GitCommandError', exitCode: 128 });
  });
});
