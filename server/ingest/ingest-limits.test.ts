import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { materializeDemoGitRepo } from './demo-git-repo';
import { readBoundedGitHistory } from './git-history-parser';
import { planIngest } from './ingest-path';
import { ByteBudget, DEFAULT_INGEST_LIMITS, type IngestLimits, mapBounded } from './ingest-limits';
import { countWords } from './word-token-counter';

let workDir: string;
let notes: string;
let repository: string;
const limits = (overrides: Partial<IngestLimits>): IngestLimits => ({ ...DEFAULT_INGEST_LIMITS, ...overrides });

beforeAll(async () => {
  workDir = await mkdtemp(join(tmpdir(), 'ingest-limits-'));
  notes = join(workDir, 'notes');
  await mkdir(notes);
  // 30 notes of exactly 1,000 bytes, named so path order is numeric order.
  for (let index = 0; index < 30; index += 1) await writeFile(join(notes, `note-${String(index).padStart(2, '0')}.md`), `# Note ${index}\n`.padEnd(1000, 'x'));
  repository = (await materializeDemoGitRepo(join(workDir, 'shop-deploy'))).path;
});
afterAll(async () => {
  await rm(workDir, { recursive: true, force: true });
});

const reasons = (skipped: readonly { readonly reason: string }[]) => skipped.map((entry) => entry.reason);

describe('ingest caps on a folder', () => {
  it('stops the walk at max_files and says how many were left out', async () => {
    const plan = await planIngest(notes, { countTokens: countWords, limits: limits({ maxFiles: 20 }) });
    expect(plan.sources[0].documents).toBe(20);
    expect(reasons(plan.skipped)).toEqual(['10 files not read: the folder holds more than ingest.max_files (20)']);
  });

  it('reads files in path order until max_total_bytes, and names the cap for each file left out', async () => {
    const plan = await planIngest(notes, { countTokens: countWords, limits: limits({ maxTotalBytes: 5_500, readConcurrency: 3 }) });
    expect(plan.sources[0].documents).toBe(5);
    expect([...new Set(plan.sources[0].chunks.map((chunk) => chunk.uri))]).toEqual(['note-00.md', 'note-01.md', 'note-02.md', 'note-03.md', 'note-04.md']);
    expect(plan.skipped).toHaveLength(25);
    expect(new Set(reasons(plan.skipped))).toEqual(new Set(['not read: the ingest reached ingest.max_total_bytes (5500 bytes)']));
    // The same tree under the same cap is the same source version, whatever order the reads finish in.
    const again = await planIngest(notes, { countTokens: countWords, limits: limits({ maxTotalBytes: 5_500, readConcurrency: 8 }) });
    expect(again.sources[0].contentHash).toBe(plan.sources[0].contentHash);
  });

  it('skips a file over max_file_bytes with the key in the reason', async () => {
    const plan = await planIngest(notes, { countTokens: countWords, limits: limits({ maxFileBytes: 999 }) }).catch((error: Error) => error);
    expect(plan).toBeInstanceOf(Error);
    expect((plan as Error).message).toContain('30 larger than ingest.max_file_bytes (999 bytes)');
  });
});

describe('ingest caps on a git history', () => {
  it('reads the newest max_commits and counts the older ones it left out', async () => {
    const history = await readBoundedGitHistory(repository, { maxCommits: 3 });
    expect(history.documents.map((document) => document.metadata?.shortSha)).toEqual(['acaa5e7', 'aa9f295', '1d51f89']);
    expect(reasons(history.skipped)).toEqual(['4 older commits not read: ingest.max_commits is 3']);
  });

  it("cuts a commit's text at max_commit_bytes while streaming and reports it", async () => {
    const full = await readBoundedGitHistory(repository);
    const cut = await readBoundedGitHistory(repository, { maxCommitBytes: 1500 });
    expect(cut.documents.map((document) => document.uri)).toEqual(full.documents.map((document) => document.uri));
    const initial = cut.documents.at(-1)!;
    expect(Buffer.byteLength(initial.text)).toBeLessThan(Buffer.byteLength(full.documents.at(-1)!.text));
    expect(initial.text).toContain('Add checkout-api manifests for production');
    expect(reasons(cut.skipped).some((reason) => /^\d+ commits' text cut at ingest\.max_commit_bytes \(1500 bytes\)/.test(reason))).toBe(true);
    expect(full.skipped).toEqual([]);
  });

  it('stops reading history when the byte budget runs out, newest commits kept', async () => {
    const full = await readBoundedGitHistory(repository);
    const firstTwo = full.documents.slice(0, 2).reduce((sum, document) => sum + Buffer.byteLength(document.text), 0);
    const budget = new ByteBudget(firstTwo + 200);
    const history = await readBoundedGitHistory(repository, { budget });
    expect(history.documents.map((document) => document.uri)).toEqual(full.documents.slice(0, 2).map((document) => document.uri));
    expect(reasons(history.skipped)).toEqual([`5 commits not read: the ingest reached ingest.max_total_bytes (${firstTwo + 200} bytes)`]);
  });
});

describe('mapBounded', () => {
  it('keeps at most `concurrency` calls in flight and returns results in input order', async () => {
    let inFlight = 0;
    let most = 0;
    const results = await mapBounded([5, 1, 4, 2, 3, 0, 6], 3, async (delay, index) => {
      inFlight += 1;
      most = Math.max(most, inFlight);
      await new Promise((resolve) => setTimeout(resolve, delay * 5));
      inFlight -= 1;
      return index * 10;
    });
    expect(results).toEqual([0, 10, 20, 30, 40, 50, 60]);
    expect(most).toBe(3);
  });
});
