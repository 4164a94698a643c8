import { DEFAULT_INGEST, type IngestConfig } from '../runtime/config/ingest-schema';

/**
 * The caps one ingest keeps (config `ingest:`, see ingest-schema.ts). Each skip reason names the key
 * to raise, so a report says what was left out, why, and what to change.
 */
export interface IngestLimits {
  readonly maxFiles: number;
  readonly maxFileBytes: number;
  readonly maxTotalBytes: number;
  readonly maxCommits: number;
  readonly maxCommitBytes: number;
  readonly gitTimeoutMs: number;
  readonly readConcurrency: number;
}

export function ingestLimitsOf(config: IngestConfig): IngestLimits {
  return Object.freeze({
    maxFiles: config.max_files,
    maxFileBytes: config.max_file_bytes,
    maxTotalBytes: config.max_total_bytes,
    maxCommits: config.max_commits,
    maxCommitBytes: config.max_commit_bytes,
    gitTimeoutMs: config.git_timeout_ms,
    readConcurrency: config.read_concurrency,
  });
}

export const DEFAULT_INGEST_LIMITS: IngestLimits = ingestLimitsOf(DEFAULT_INGEST);

/** Bytes an ingest may still read. Reserved in a fixed order (sorted paths, newest commits first) so the same tree keeps the same files. */
export class ByteBudget {
  private used = 0;

  constructor(readonly cap: number) {}

  /** Reserves `bytes` when they fit and says whether they did. */
  take(bytes: number): boolean {
    if (this.used + bytes > this.cap) return false;
    this.used += bytes;
    return true;
  }

  /** Gives back what a reservation did not use (a commit's output is only known once read). */
  release(bytes: number): void {
    this.used = Math.max(0, this.used - bytes);
  }

  get usedBytes(): number {
    return this.used;
  }
}

export const overTotalBytesReason = (cap: number): string => `not read: the ingest reached ingest.max_total_bytes (${cap} bytes)`;

/**
 * Maps `items` with at most `concurrency` calls in flight, results in input order. Reading 50,000
 * files one by one spent most of the time waiting on the disk; all at once opens too many handles.
 */
export async function mapBounded<Item, Result>(
  items: readonly Item[],
  concurrency: number,
  map: (item: Item, index: number) => Promise<Result>,
  /** A stopped ingest (cancel, timeout) starts no further item. */
  signal?: AbortSignal,
): Promise<Result[]> {
  const results = new Array<Result>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      signal?.throwIfAborted();
      const index = next++;
      results[index] = await map(items[index], index);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(concurrency, items.length)) }, worker));
  return results;
}
