import { streamGit } from './git-command';
import type { ByteBudget } from './ingest-limits';

/**
 * Every commit of a history from ONE `git log --stat --patch` process, each commit's text cut at
 * maxCommitBytes while it streams. One `git show` per commit cost a process spawn each, and
 * spawning from a server whose PGlite has reserved gigabytes of address space blocked the event
 * loop ~200 ms per fork (bench:ingest-load CPU profile: 25 s of ChildProcess.spawn for 100
 * commits); one process per history removes that entirely.
 */

export interface CommitRecord {
  readonly sha: string;
  readonly author: string;
  readonly email: string;
  readonly date: string;
  readonly message: string;
  /** `--stat --patch` output as `git show --format=` prints it, cut when `truncated`. */
  readonly patch: string;
  readonly truncated: boolean;
}

export interface CommitLog {
  readonly commits: CommitRecord[];
  /** The byte budget ran out: git was stopped, and older commits were not read. */
  readonly budgetReached: boolean;
}

const FIELD = '\x1f';
const RECORD = 0x1e;
// Each record opens with RECORD and its header fields end with FIELD, so the patch that follows
// (which may hold anything but these two bytes) is everything after the fifth FIELD.
export const LOG_FORMAT = `%x1e${['%H', '%an', '%ae', '%aI', '%B'].join('%x1f')}%x1f`;

function parseRecord(bytes: Buffer, truncated: boolean): CommitRecord | undefined {
  const text = bytes.toString('utf8');
  const parts = text.split(FIELD);
  if (parts.length < 6 || !parts[0]) return undefined;
  const [sha, author, email, date, message] = parts;
  return { sha, author, email, date, message, patch: parts.slice(5).join(FIELD), truncated };
}

export async function readCommitLog(
  repository: string,
  args: readonly string[],
  options: { readonly maxCommitBytes: number; readonly timeoutMs: number; readonly budget: ByteBudget; readonly signal?: AbortSignal },
): Promise<CommitLog> {
  const commits: CommitRecord[] = [];
  let current: Buffer[] = [];
  let kept = 0;
  let cut = false;
  let budgetReached = false;
  let started = false;
  /** Closes the record read so far; false when the budget cannot take it. */
  const finish = (): boolean => {
    if (!started) return true;
    const bytes = Buffer.concat(current);
    const record = parseRecord(bytes, cut);
    current = [];
    kept = 0;
    cut = false;
    if (!record) return true;
    if (!options.budget.take(bytes.length)) {
      budgetReached = true;
      return false;
    }
    commits.push(record);
    return true;
  };
  const append = (piece: Buffer) => {
    if (cut || piece.length === 0) return;
    const room = options.maxCommitBytes - kept;
    if (piece.length > room) cut = true;
    const slice = piece.length > room ? piece.subarray(0, room) : piece;
    current.push(slice);
    kept += slice.length;
  };
  await streamGit(['log', ...args, `--format=${LOG_FORMAT}`], { cwd: repository, timeoutMs: options.timeoutMs, ...(options.signal ? { signal: options.signal } : {}) }, (data) => {
    let from = 0;
    for (let at = data.indexOf(RECORD); at !== -1; at = data.indexOf(RECORD, from)) {
      append(data.subarray(from, at));
      if (!finish()) return false;
      started = true;
      from = at + 1;
    }
    append(data.subarray(from));
    return true;
  });
  if (!budgetReached) finish();
  return { commits, budgetReached };
}
