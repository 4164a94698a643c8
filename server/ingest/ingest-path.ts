import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import type { IngestChunk, IngestDocument, IngestReport, IngestResult, StorePlugin } from '../runtime/contracts/store';
import { TimeSlice } from '../runtime/scheduler/time-slice';
import type { SourceKind } from '../runtime/types';
import { parseCsvMetrics } from './csv-metrics-parser';
import { binaryContentReason } from './binary-content';
import { type DetectedFile, type DetectedGroup, type ParserName, type SkippedPath, detectSources } from './detect-source';
import { addRemovedLines, commitFileParts } from './commit-file-parts';
import { commitChunk, readBoundedGitHistory } from './git-history-parser';
import { ByteBudget, DEFAULT_INGEST_LIMITS, type IngestLimits, mapBounded, overTotalBytesReason } from './ingest-limits';
import type { CountTokens, TextFile } from './ingest-types';
import { parseK8sEvents } from './k8s-events-parser';
import { parseLog } from './log-parser';
import { parseMarkdown } from './markdown-parser';

/**
 * path → planned sources (name, kind, chunks, content hash) → store.ingest. Planning is separate from
 * writing so the CLI and the UI can show what would be ingested, and so the hash is known before the
 * store is touched: an unchanged source costs one hash comparison, not a rewrite.
 */

export interface IngestPathOptions {
  /** Defaults to the path's base name; "<name>-<kind>" when one folder yields several kinds. */
  readonly sourceName?: string;
  readonly countTokens: CountTokens;
  readonly sensitive?: boolean;
  /** The caps this ingest keeps (config `ingest:`); defaults to the config defaults. */
  readonly limits?: IngestLimits;
  /**
   * A cancel or ingest.timeout_ms: checked between files, commits and sources, and handed to git
   * and the store, which undoes the source it was writing. Nothing is half-written.
   */
  readonly signal?: AbortSignal;
}

export interface PlannedSource {
  readonly name: string;
  readonly kind: SourceKind;
  readonly chunks: readonly IngestChunk[];
  readonly contentHash: string;
  /** Files, or commits for a git source. */
  readonly documents: number;
}

export interface IngestPlan {
  readonly sources: readonly PlannedSource[];
  readonly skipped: readonly SkippedPath[];
}

/**
 * Folded into every content hash: a change to how files are chunked must produce a new source
 * version even when the files are byte-identical. Bump it when a parser's output changes.
 */
export const CHUNKER_VERSION = 'ingest-chunker/v1';

/** sha256 over the (uri, content) pairs sorted by uri, each part length-prefixed so no two lists collide. */
export function contentHash(pairs: readonly TextFile[]): string {
  const hash = createHash('sha256').update(CHUNKER_VERSION);
  for (const pair of [...pairs].sort((left, right) => (left.uri < right.uri ? -1 : left.uri > right.uri ? 1 : 0))) {
    for (const part of [pair.uri, pair.content]) hash.update(`${Buffer.byteLength(part)}:`).update(part);
  }
  return hash.digest('hex');
}

export function parseFile(parser: Exclude<ParserName, 'git-history'>, file: TextFile, countTokens: CountTokens): IngestChunk[] {
  switch (parser) {
    case 'markdown':
      return parseMarkdown(file, { countTokens });
    case 'log':
      return parseLog(file, { countTokens });
    case 'k8s-events':
      return parseK8sEvents(file, { countTokens });
    case 'csv-metrics':
      return parseCsvMetrics(file, { countTokens });
  }
}

interface PlannedGroup extends Omit<PlannedSource, 'name'> {
  /** Files the sniff let through but whose full content is not text (binary past the first 64 KiB). */
  readonly skipped: readonly SkippedPath[];
}


/**
 * Reads the files the budget admits, `limits.readConcurrency` at a time. The budget is reserved
 * from the detected sizes in path order before anything is read, so which files fit does not
 * depend on which read finished first.
 */
async function readTextFiles(files: readonly DetectedFile[], limits: IngestLimits, budget: ByteBudget, signal?: AbortSignal): Promise<{ readonly texts: TextFile[]; readonly skipped: SkippedPath[] }> {
  const skipped: SkippedPath[] = [];
  const admitted = files.filter((file) => budget.take(file.bytes) || (skipped.push({ path: file.path, reason: overTotalBytesReason(budget.cap) }), false));
  const read = await mapBounded(admitted, limits.readConcurrency, async (file) => {
    const bytes = await readFile(file.path);
    // A file that grew since it was detected is read only up to its detected size: the budget holds.
    const kept = bytes.length > file.bytes ? bytes.subarray(0, file.bytes) : bytes;
    return { file, bytes: kept, binary: binaryContentReason(kept) };
  }, signal);
  const texts: TextFile[] = [];
  for (const { file, bytes, binary } of read) {
    if (binary) skipped.push({ path: file.path, reason: binary });
    else texts.push({ uri: file.relativePath, content: bytes.toString('utf8') });
  }
  return { texts, skipped };
}

/**
 * Parsing (token counting above all) is synchronous, and 50,000 files in one go held the event
 * loop; it yields on a time budget between files. A count (25 files a slice) was ~25 ms on an
 * idle core but 2–3 s in bench:ingest-load on a loaded one.
 */
async function parseFiles(parser: Exclude<ParserName, 'git-history'>, texts: readonly TextFile[], countTokens: CountTokens, signal?: AbortSignal): Promise<IngestChunk[]> {
  const chunks: IngestChunk[] = [];
  const slice = new TimeSlice();
  for (const file of texts) {
    await slice.yieldIfSpent();
    signal?.throwIfAborted();
    chunks.push(...parseFile(parser, file, countTokens));
  }
  return chunks;
}

/** Fitting a commit to its token budget counts tokens line by line (~10 ms for a large diff, far more on a loaded core). */
async function commitChunks(documents: readonly IngestDocument[], countTokens: CountTokens, signal?: AbortSignal): Promise<IngestChunk[]> {
  const chunks: IngestChunk[] = [];
  const slice = new TimeSlice();
  // Newest first (git log's order): what the commits read so far removed, a later commit removed.
  const removedLater = new Map<string, Set<string>>();
  for (const document of documents) {
    await slice.yieldIfSpent();
    signal?.throwIfAborted();
    const chunk = commitChunk(document, countTokens);
    chunks.push(chunk);
    // What the chunk had to cut stays findable by a setting lookup (commit-file-parts.ts).
    if (chunk.metadata?.truncated === true) chunks.push(...commitFileParts(document, countTokens, removedLater));
    addRemovedLines(document.text, removedLater);
  }
  return chunks;
}

async function planGroup(root: string, group: DetectedGroup, options: IngestPathOptions, limits: IngestLimits, budget: ByteBudget): Promise<PlannedGroup> {
  const { signal } = options;
  if (group.parser === 'git-history') {
    const history = await readBoundedGitHistory(root, { maxCommits: limits.maxCommits, maxCommitBytes: limits.maxCommitBytes, timeoutMs: limits.gitTimeoutMs, budget, ...(signal ? { signal } : {}) });
    return {
      kind: group.kind,
      chunks: Object.freeze(await commitChunks(history.documents, options.countTokens, signal)),
      contentHash: contentHash(history.documents.map((document) => ({ uri: document.uri, content: document.text }))),
      documents: history.documents.length,
      skipped: history.skipped,
    };
  }
  const { texts, skipped } = await readTextFiles(group.files, limits, budget, signal);
  return {
    kind: group.kind,
    chunks: Object.freeze(await parseFiles(group.parser, texts, options.countTokens, signal)),
    contentHash: contentHash(texts),
    documents: texts.length,
    skipped,
  };
}

/** Lower-case, path-safe default name: "Demo Incident/" → "demo-incident", "notes.md" → "notes". */
export function defaultSourceName(root: string, isDirectory: boolean): string {
  const name = isDirectory ? basename(root) : basename(root).replace(/\.[^.]+$/, '');
  return name.toLowerCase().replace(/[^a-z0-9._-]+/g, '-').replace(/^-+|-+$/g, '') || 'source';
}

export async function planIngest(path: string, options: IngestPathOptions): Promise<IngestPlan> {
  const limits = options.limits ?? DEFAULT_INGEST_LIMITS;
  const detected = await detectSources(path, limits, options.signal);
  // One budget across every kind the folder yields: the cap is per ingest, not per source.
  const budget = new ByteBudget(limits.maxTotalBytes);
  const baseName = options.sourceName ?? defaultSourceName(detected.root, detected.isDirectory);
  const skipped = [...detected.skipped];
  const sources: PlannedSource[] = [];
  for (const group of detected.groups) {
    const { skipped: unreadable, ...planned } = await planGroup(detected.root, group, options, limits, budget);
    skipped.push(...unreadable);
    const name = detected.groups.length > 1 ? `${baseName}-${group.kind}` : baseName;
    if (planned.chunks.length === 0) {
      if (unreadable.length < group.files.length || group.parser === 'git-history') skipped.push({ path: detected.root, reason: `${group.kind}: no content to ingest (empty files or no commits)` });
      continue;
    }
    sources.push(Object.freeze({ name, ...planned }));
  }
  return Object.freeze({ sources: Object.freeze(sources), skipped: Object.freeze(skipped) });
}

/** Writes planned sources one by one; a same-hash source is a no-op in the store. */
export async function writePlannedIngest(
  store: StorePlugin,
  plan: IngestPlan,
  options: { readonly sensitive?: boolean; readonly onProgress?: (done: number, total: number) => void; readonly signal?: AbortSignal } = {},
): Promise<IngestReport> {
  const results: IngestResult[] = [];
  const { signal } = options;
  options.onProgress?.(0, plan.sources.length);
  for (const source of plan.sources) {
    // Between sources: each one is whole (the store undoes the one a stop cuts short).
    signal?.throwIfAborted();
    results.push(await store.ingest({ name: source.name, kind: source.kind, sensitive: options.sensitive }, source.chunks, source.contentHash, signal ? { signal } : {}));
    options.onProgress?.(results.length, plan.sources.length);
  }
  return Object.freeze({ sources: Object.freeze(results), skipped: plan.skipped });
}

export async function ingestPath(
  store: StorePlugin,
  path: string,
  options: IngestPathOptions & { readonly onProgress?: (done: number, total: number) => void },
): Promise<IngestReport> {
  return writePlannedIngest(store, await planIngest(path, options), options);
}
