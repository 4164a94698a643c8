import { existsSync } from 'node:fs';
import { open, readdir, stat } from 'node:fs/promises';
import { basename, extname, join, relative, resolve, sep } from 'node:path';
import type { SourceKind } from '../runtime/types';
import { invalidInput } from '../runtime/errors';
import { binaryContentReason } from './binary-content';
import { DEFAULT_INGEST_LIMITS, type IngestLimits, mapBounded } from './ingest-limits';

/**
 * Decides which parser reads a path and which SourceKind its chunks get. A directory holding .git is
 * a git history; any other directory is walked and its files grouped by kind, so one folder of mixed
 * evidence (runbooks, logs, events, metrics) becomes one source per kind: the retrieval rules are
 * phrased over kinds ("incident → search logs and events first").
 */

export type ParserName = 'markdown' | 'log' | 'k8s-events' | 'csv-metrics' | 'git-history';

export interface DetectedFile {
  readonly path: string;
  /** Posix path relative to the detected root (the chunk uri); the file name when a single file was given. */
  readonly relativePath: string;
  /** Size when detected: the total-bytes budget is reserved from it before anything is read. */
  readonly bytes: number;
}

export interface DetectedGroup {
  readonly kind: SourceKind;
  readonly parser: ParserName;
  /** Empty for git: the repository at `root` is read as a whole. */
  readonly files: readonly DetectedFile[];
}

export interface SkippedPath {
  readonly path: string;
  readonly reason: string;
}

export interface DetectedSources {
  readonly root: string;
  readonly isDirectory: boolean;
  readonly groups: readonly DetectedGroup[];
  readonly skipped: readonly SkippedPath[];
}

const PARSER_KIND: Readonly<Record<ParserName, SourceKind>> = { markdown: 'docs', log: 'logs', 'k8s-events': 'events', 'csv-metrics': 'metrics', 'git-history': 'git' };
const EXTENSION_PARSER: Readonly<Record<string, ParserName>> = { '.md': 'markdown', '.markdown': 'markdown', '.txt': 'markdown', '.log': 'log', '.csv': 'csv-metrics', '.json': 'k8s-events' };
const SKIPPED_DIRECTORIES = new Set(['node_modules', '.git']);
const SNIFF_BYTES = 64 * 1024;

const EVENT_SIGNATURE = /"(involvedObject|regarding)"\s*:|"kind"\s*:\s*"(Event|EventList)"/;

/** The first SNIFF_BYTES of a file, and whether the file goes on past them. */
async function sniff(path: string): Promise<{ readonly bytes: Buffer; readonly truncated: boolean }> {
  const handle = await open(path, 'r');
  try {
    const buffer = Buffer.alloc(SNIFF_BYTES + 1);
    const { bytesRead } = await handle.read(buffer, 0, SNIFF_BYTES + 1, 0);
    return { bytes: buffer.subarray(0, Math.min(bytesRead, SNIFF_BYTES)), truncated: bytesRead > SNIFF_BYTES };
  } finally {
    await handle.close();
  }
}

/**
 * The parser for one file's name and first bytes, or the reason it has none. `explicit` = the user
 * named this file directly. The extension picks the parser, but the bytes must be text whatever the
 * extension says: a renamed binary would otherwise be ingested as chunks of garbage. Shared by the
 * server-path walk and uploads, which have the bytes in memory.
 */
export function classifyContent(name: string, head: Buffer, truncated: boolean, explicit: boolean, mode = 0): ParserName | { readonly reason: string } {
  const parser = EXTENSION_PARSER[extname(name).toLowerCase()];
  if (!parser) {
    const type = extname(name) || basename(name);
    // Said apart from other unsupported files: "my tool was ignored" is the question a user asks.
    return { reason: mode & 0o111 ? `executable file, not a document (unsupported file type "${type}")` : `unsupported file type "${type}"` };
  }
  const sniffed = head.subarray(0, SNIFF_BYTES);
  const binary = binaryContentReason(sniffed, truncated || head.length > SNIFF_BYTES);
  if (binary) return { reason: binary };
  // A named .json file goes to the events parser even if it does not look like events: its error says why.
  if (parser === 'k8s-events' && !explicit && !/event/i.test(basename(name)) && !EVENT_SIGNATURE.test(sniffed.toString('utf8'))) {
    return { reason: 'JSON file is not a list of Kubernetes events' };
  }
  return parser;
}

/** classifyContent for a file on disk, reading only its first SNIFF_BYTES (and none for an unsupported type). */
export async function classifyFile(path: string, explicit: boolean, mode = 0): Promise<ParserName | { readonly reason: string }> {
  if (!EXTENSION_PARSER[extname(path).toLowerCase()]) return classifyContent(path, Buffer.alloc(0), false, explicit, mode);
  const head = await sniff(path);
  return classifyContent(path, head.bytes, head.truncated, explicit, mode);
}

interface Walk {
  readonly files: string[];
  readonly skipped: SkippedPath[];
  readonly maxFiles: number;
  /** Files seen past maxFiles: counted, not kept, so the report can say how many were left out. */
  beyondCap: number;
}

async function walk(directory: string, state: Walk): Promise<void> {
  const entries = await readdir(directory, { withFileTypes: true });
  entries.sort((left, right) => (left.name < right.name ? -1 : left.name > right.name ? 1 : 0));
  for (const entry of entries) {
    const path = join(directory, entry.name);
    // Listed once, not walked: a skipped folder is reported as one line, not one per file inside.
    const { files, skipped } = state;
    if (SKIPPED_DIRECTORIES.has(entry.name)) skipped.push({ path, reason: entry.name === '.git' ? 'git metadata folder (ingest the repository folder itself to read its history)' : 'dependency folder, not walked' });
    else if (entry.name.startsWith('.')) skipped.push({ path, reason: entry.isDirectory() ? 'hidden folder, not walked' : 'hidden file' });
    else if (entry.isDirectory()) await walk(path, state);
    else if (entry.isFile()) {
      if (files.length >= state.maxFiles) state.beyondCap += 1;
      else files.push(path);
    } else skipped.push({ path, reason: 'not a regular file (symbolic links are not followed)' });
  }
}

/**
 * Why the entries were left out, counted by reason ("2 unsupported file type, 1 hidden file"): the
 * error goes back to a remote caller, so it carries no file names (a directory listing of the
 * server) and no content (issue 12, finding 2); the reasons say what to fix.
 */
export function skippedSummary(skipped: readonly SkippedPath[]): string {
  if (skipped.length === 0) return '';
  const counts = new Map<string, number>();
  // Reasons are fixed phrases plus a file type or a byte offset, never a name or content.
  for (const { reason } of skipped) counts.set(reason, (counts.get(reason) ?? 0) + 1);
  return `: ${skipped.length} skipped (${[...counts].map(([reason, count]) => `${count} ${reason}`).join(', ')})`;
}

type Classified = { readonly file: string; readonly size: number; readonly parser: ParserName } | { readonly file: string; readonly reason: string };

export async function detectSources(path: string, limits: Pick<IngestLimits, 'maxFiles' | 'maxFileBytes' | 'readConcurrency'> = DEFAULT_INGEST_LIMITS, signal?: AbortSignal): Promise<DetectedSources> {
  const root = resolve(path);
  const info = await stat(root).catch(() => null);
  if (!info) throw invalidInput('path', `${path} does not exist`, { path });
  if (info.isDirectory() && existsSync(join(root, '.git'))) {
    return Object.freeze({ root, isDirectory: true, groups: Object.freeze([Object.freeze({ kind: 'git' as const, parser: 'git-history' as const, files: Object.freeze([]) })]), skipped: Object.freeze([]) });
  }
  const state: Walk = { files: [], skipped: [], maxFiles: limits.maxFiles, beyondCap: 0 };
  if (info.isDirectory()) await walk(root, state);
  else state.files.push(root);
  const skipped = state.skipped;
  if (state.beyondCap > 0) skipped.push({ path: root, reason: `${state.beyondCap} files not read: the folder holds more than ingest.max_files (${limits.maxFiles})` });

  // Stat and sniff with bounded concurrency: one by one, 50,000 files spent the time waiting on the disk.
  const classified = await mapBounded(state.files, limits.readConcurrency, async (file): Promise<Classified> => {
    const { size, mode } = info.isDirectory() ? await stat(file) : info;
    if (size > limits.maxFileBytes) return { file, reason: `larger than ingest.max_file_bytes (${limits.maxFileBytes} bytes)` };
    const parser = await classifyFile(file, !info.isDirectory(), mode);
    return typeof parser === 'string' ? { file, size, parser } : { file, reason: parser.reason };
  }, signal);
  const byParser = new Map<ParserName, DetectedFile[]>();
  for (const entry of classified) {
    if ('reason' in entry) {
      skipped.push({ path: entry.file, reason: entry.reason });
      continue;
    }
    const relativePath = info.isDirectory() ? relative(root, entry.file).split(sep).join('/') : basename(entry.file);
    const group = byParser.get(entry.parser) ?? [];
    if (group.length === 0) byParser.set(entry.parser, group);
    group.push(Object.freeze({ path: entry.file, relativePath, bytes: entry.size }));
  }
  if (byParser.size === 0) {
    throw invalidInput('path', `nothing to ingest at ${path}; supported: .md, .txt, .log, Kubernetes events .json, .csv metrics, or a git repository${skippedSummary(skipped)}`, { path });
  }
  const order: readonly ParserName[] = ['markdown', 'log', 'k8s-events', 'csv-metrics'];
  const groups = order.filter((parser) => byParser.has(parser)).map((parser) => Object.freeze({ kind: PARSER_KIND[parser], parser, files: Object.freeze(byParser.get(parser)!) }));
  return Object.freeze({ root, isDirectory: info.isDirectory(), groups: Object.freeze(groups), skipped: Object.freeze(skipped) });
}
