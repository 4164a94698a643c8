import { realpath, stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { IngestChunk, IngestDocument } from '../runtime/contracts/store';
import { invalidInput } from '../runtime/errors';
import { GitCommandError, runGit } from './git-command';
import { type CountTokens, freezeChunk } from './ingest-types';
import { truncateCommitText } from './commit-diff-truncation';

/**
 * A git repository → one document (and one chunk) per commit: who, when, why (the message) and what
 * (`git show --stat --patch`). A commit is the unit a question about a change cites ("commit 48d4188"),
 * so it is never split; an oversized diff is truncated instead (see commit-diff-truncation.ts).
 */

export interface GitHistoryOptions {
  /** Newest commits first; a deploy repo's recent history is what incidents ask about. */
  readonly maxCommits?: number;
}

export const GIT_MAX_COMMITS = 500;
export const GIT_COMMIT_MAX_TOKENS = 800;

const FIELD = '\x1f';
const RECORD = '\x1e';

// The text must not depend on the user's git config (color.ui, diff.noprefix, diff.external,
// log.showSignature), or two machines would hash the same history differently.
const SHOW_FLAGS = ['--stat', '--patch', '--no-color', '--no-ext-diff', '--no-textconv', '--src-prefix=a/', '--dst-prefix=b/', '--no-show-signature', '--diff-merges=first-parent', '--format='];

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
  const repository = await assertGitRepository(path);
  const hasHead = await runGit(['rev-parse', '--verify', '--quiet', 'HEAD'], { cwd: repository }).then(
    () => true,
    () => false,
  );
  if (!hasHead) return [];
  const format = ['%H', '%an', '%ae', '%aI', '%B'].join('%x1f') + '%x1e';
  const log = await runGit(['log', '--no-show-signature', `--max-count=${options.maxCommits ?? GIT_MAX_COMMITS}`, `--format=${format}`], { cwd: repository });
  const documents: IngestDocument[] = [];
  for (const record of log.split(RECORD)) {
    const [sha, author, email, date, message] = record.replace(/^\n/, '').split(FIELD);
    if (!sha) continue;
    const body = (message ?? '').trim();
    const subject = body.split('\n')[0];
    const patch = await runGit(['show', ...SHOW_FLAGS, sha], { cwd: repository });
    const indented = body.split('\n').map((line) => (line ? `    ${line}` : ''));
    // The author's address stays in metadata, not in the searchable text: a reader needs the name, and
    // an address in every commit would mark every git source sensitive (the detector rightly finds
    // emails), keeping every plan over git history off non-local tiers under policy local_only.
    const text = [`commit ${sha}`, `Author: ${author}`, `Date:   ${date}`, '', ...indented, '', patch.replace(/^\n+/, '').trimEnd()].join('\n');
    const files = [...patch.matchAll(/^diff --git a\/(.+?) b\//gm)].map((match) => match[1]);
    documents.push(
      Object.freeze({
        uri: `commit ${sha}`,
        title: `commit ${sha.slice(0, 7)}: ${subject}`,
        text,
        metadata: Object.freeze({ sha, shortSha: sha.slice(0, 7), author, email, date, subject, files: Object.freeze(files) }),
      }),
    );
  }
  return documents;
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
