import { realpath, stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { IngestChunk, IngestDocument } from '../runtime/contracts/store';
import { invalidInput } from '../runtime/errors';
import { TimeSlice } from '../runtime/scheduler/time-slice';
import type { SkippedPath } from './detect-source';
import { GitCommandError, runGit } from './git-command';
import { type CommitRecord, readCommitLog } from './git-log-stream';
import { ByteBudget, DEFAULT_INGEST_LIMITS, overTotalBytesReason } from './ingest-limits';
import { type CountTokens, freezeChunk } from './ingest-types';
import { truncateCommitText } from './commit-diff-truncation';

/**
 * A git repository → one document (and one chunk) per commit: who, when, why (the message) and what
 * (`--stat --patch`). A commit is the unit a question about a change cites ("commit 48d4188"),
 * so it is never split; an oversized diff is truncated instead (see commit-diff-truncation.ts).
 */

export interface GitHistoryOptions {
  /** Newest commits first; a deploy repo's recent history is what incidents ask about. */
  readonly maxCommits?: number;
  /** Bytes of one commit's text kept; the rest is cut while streaming. */
  readonly maxCommitBytes?: number;
  /** Git is killed after this long without output (ingest.git_timeout_ms). */
  readonly timeoutMs?: number;
  /** The ingest's total-bytes budget; commits past it are not read. */
  readonly budget?: ByteBudget;
  /** The ingest stopped (cancel, ingest.timeout_ms): git is killed and the read rejects. */
  readonly signal?: AbortSignal;
}

export interface GitHistory {
  readonly documents: IngestDocument[];
  /** What a cap left out or cut, one entry per cap, naming the key to raise. */
  readonly skipped: SkippedPath[];
}

export const GIT_MAX_COMMITS = DEFAULT_INGEST_LIMITS.maxCommits;
export const GIT_COMMIT_MAX_TOKENS = 800;

// The text must not depend on the user's git config (color.ui, diff.noprefix, diff.external,
// log.showSignature), or two machines would hash the same history differently.
const LOG_FLAGS = ['--stat', '--patch', '--no-color', '--no-ext-diff', '--no-textconv', '--src-prefix=a/', '--dst-prefix=b/', '--diff-merges=first-parent'];

/** Throws INVALID_INPUT unless `path` is the top level of a git work tree. */
export async function assertGitRepository(path: string): Promise<string> {
  const absolute = resolve(path);
  const info = await stat(absolute).catch(() => null);
  if (!info?.isDirectory()) throw invalidInput('path', `${path} is not a directory, so it cannot be a git repository`, { path });
  let topLevel: string;
  try {
    topLevel = (await runGit(['rev-parse', '--show-toplevel'], { cwd: absolute })).trim();
  } catch (error) {
    const reason = error instanceof GitCommandError ? error.stderr.trim() : String(error);
    throw invalidInput('path', `${path} is not a git repository (${reason || 'git rev-parse failed'})`, { path });
  }
  // Inside another repository's subfolder rev-parse succeeds too; only the top level is this repository.
  if ((await realpath(topLevel)) !== (await realpath(absolute))) {
    throw invalidInput('path', `${path} is not a git repository: it is a folder inside the repository at ${topLevel}`, { path, topLevel });
  }
  return absolute;
}

export async function readGitHistory(path: string, options: GitHistoryOptions = {}): Promise<IngestDocument[]> {
  return (await readBoundedGitHistory(path, options)).documents;
}

/**
 * The newest maxCommits commits from one streaming `git log` (git-log-stream.ts), each commit's
 * text cut at maxCommitBytes as it streams, accepted newest first until the byte budget runs out:
 * the same history under the same caps always yields the same documents (and hash).
 */
export async function readBoundedGitHistory(path: string, options: GitHistoryOptions = {}): Promise<GitHistory> {
  const repository = await assertGitRepository(path);
  const timeoutMs = options.timeoutMs ?? DEFAULT_INGEST_LIMITS.gitTimeoutMs;
  const { signal } = options;
  const git = { cwd: repository, timeoutMs, ...(signal ? { signal } : {}) };
  const hasHead = await runGit(['rev-parse', '--verify', '--quiet', 'HEAD'], git).then(
    () => true,
    () => false,
  );
  if (!hasHead) return { documents: [], skipped: [] };
  const maxCommits = options.maxCommits ?? GIT_MAX_COMMITS;
  const skipped: SkippedPath[] = [];
  const total = Number((await runGit(['rev-list', '--count', 'HEAD'], git)).trim());
  if (total > maxCommits) skipped.push({ path: repository, reason: `${total - maxCommits} older commits not read: ingest.max_commits is ${maxCommits}` });
  const budget = options.budget ?? new ByteBudget(Number.POSITIVE_INFINITY);
  const maxCommitBytes = options.maxCommitBytes ?? DEFAULT_INGEST_LIMITS.maxCommitBytes;
  const log = await readCommitLog(repository, ['--no-show-signature', `--max-count=${maxCommits}`, ...LOG_FLAGS], { maxCommitBytes, timeoutMs, budget, ...(signal ? { signal } : {}) });
  const documents: IngestDocument[] = [];
  let cut = 0;
  // Building a document is synchronous string work; 2,000 of them in one go held the event loop.
  const slice = new TimeSlice();
  for (const commit of log.commits) {
    await slice.yieldIfSpent();
    signal?.throwIfAborted();
    if (commit.truncated) cut += 1;
    documents.push(commitDocument(commit));
  }
  if (log.budgetReached) skipped.push({ path: repository, reason: `${Math.min(total, maxCommits) - documents.length} commits ${overTotalBytesReason(budget.cap)}` });
  if (cut > 0) skipped.push({ path: repository, reason: `${cut} commits' text cut at ingest.max_commit_bytes (${maxCommitBytes} bytes); their headers and --stat are kept` });
  return { documents, skipped };
}

function commitDocument({ sha, author, email, date, message, patch }: CommitRecord): IngestDocument {
  const body = message.trim();
  const indented = body.split('\n').map((line) => (line ? `    ${line}` : ''));
  const text = [`commit ${sha}`, `Author: ${author} <${email}>`, `Date:   ${date}`, '', ...indented, '', patch.replace(/^\n+/, '').trimEnd()].join('\n');
  const files = [...patch.matchAll(/^diff --git a\/(.+?) b\//gm)].map((match) => match[1]);
  return Object.freeze({
    uri: `commit ${sha}`,
    title: `commit ${sha.slice(0, 7)}: ${body.split('\n')[0]}`,
    text,
    metadata: Object.freeze({ sha, shortSha: sha.slice(0, 7), author, email, date, subject: body.split('\n')[0], files: Object.freeze(files) }),
  });
}

export function commitChunk(document: IngestDocument, countTokens: CountTokens, maxTokens = GIT_COMMIT_MAX_TOKENS): IngestChunk {
  const { text, truncated } = truncateCommitText(document.text, countTokens, maxTokens);
  const shortSha = String(document.metadata?.shortSha ?? document.uri.replace(/^commit /, '').slice(0, 7));
  return freezeChunk({
    uri: document.uri,
    ordinal: 0,
    title: document.title,
    text,
    locator: `commit ${shortSha}`,
    tokens: countTokens(text),
    metadata: { ...document.metadata, truncated },
  });
}

export async function parseGitHistory(path: string, options: GitHistoryOptions & { readonly countTokens: CountTokens; readonly maxTokens?: number }): Promise<IngestChunk[]> {
  const documents = await readGitHistory(path, options);
  return documents.map((document) => commitChunk(document, options.countTokens, options.maxTokens));
}
