import type { IngestChunk, IngestDocument } from '../runtime/contracts/store';
import { type CountTokens, freezeChunk } from './ingest-types';

/**
 * The file diffs a commit's chunk had to cut, as lookup-only passages of the same commit. An initial
 * import's chunk keeps ~25 tokens of each of its sixteen files, so a setting nobody changed since
 * (eta-api's memory limit, the audit topic's partitions, a DAG's retries) was in no passage at all.
 * Searched with everything else, such parts crowded out the commits most questions need (freight dev
 * 83.3 → 78.7 %, bench/answers/RESULTS.md); kept for lookups, only a goal asking for a configured
 * value searches them (runtime/execution/setting-lookup.ts). Each part repeats the commit's sha,
 * author, date and subject, and its file's `diff --git` and hunk header, so it reads, and is cited,
 * as the commit.
 */

/** A part's diff lines, headers aside: a file of a few hundred lines becomes a handful of parts. */
export const FILE_PART_MAX_TOKENS = 300;

const lineCost = (line: string, countTokens: CountTokens) => countTokens(line) + 1;

/** "commit …", "Author: …", "Date: …" and the subject line, as the commit's own text starts. */
function commitHeader(text: string): string[] {
  const lines = text.split('\n');
  const fields = lines.slice(0, lines.findIndex((line) => line.trim() === '') + 1 || 3);
  const subject = lines.slice(fields.length).find((line) => line.trim() !== '');
  return [...fields.filter((line) => line.trim() !== ''), '', ...(subject ? [subject, ''] : [])];
}

interface FileSection {
  readonly path: string;
  /** `diff --git`, mode, index, ---/+++ lines. */
  readonly head: readonly string[];
  /** Hunks: each starts with its `@@` line. */
  readonly hunks: readonly (readonly string[])[];
}

function fileSections(text: string): FileSection[] {
  const firstDiff = text.search(/^diff --git /m);
  if (firstDiff < 0) return [];
  return text
    .slice(firstDiff)
    .split(/^(?=diff --git )/m)
    .map((section) => {
      const lines = section.trimEnd().split('\n');
      const firstHunk = lines.findIndex((line) => line.startsWith('@@'));
      const hunks: string[][] = [];
      for (const line of firstHunk < 0 ? [] : lines.slice(firstHunk)) {
        if (line.startsWith('@@')) hunks.push([line]);
        else hunks[hunks.length - 1].push(line);
      }
      return { path: /^diff --git a\/(.+?) b\//.exec(lines[0])?.[1] ?? 'file', head: firstHunk < 0 ? lines : lines.slice(0, firstHunk), hunks };
    })
    .filter((section) => section.hunks.length > 0);
}

/** Each file's lines a commit removes, trimmed: what a later commit's removal says no longer holds. */
export type RemovedLines = ReadonlyMap<string, ReadonlySet<string>>;

/** The lines each file of a commit's diff removes (its `-` lines, trimmed), added to `into`. */
export function addRemovedLines(text: string, into: Map<string, Set<string>>): void {
  for (const section of fileSections(text)) {
    const removed = into.get(section.path) ?? new Set<string>();
    for (const hunk of section.hunks) for (const line of hunk.slice(1)) if (line.startsWith('-')) removed.add(line.slice(1).trim());
    if (removed.size > 0) into.set(section.path, removed);
  }
}

/**
 * One file's hunks in parts of at most maxTokens of diff lines, each part opening with its hunk's `@@`
 * line. A line a later commit removed is left out: "replicaCount: 3" from the import, read as a
 * value still in force, answered "is that still how many it runs?" with the import's 3 (tune q07).
 */
function partsOf(section: FileSection, countTokens: CountTokens, maxTokens: number, removedLater: ReadonlySet<string> | undefined): string[][] {
  const parts: string[][] = [];
  for (const hunk of section.hunks) {
    let part: string[] = [hunk[0]];
    let used = 0;
    for (const line of hunk.slice(1)) {
      if (!line.startsWith('-') && line.trim() !== '' && removedLater?.has(line.slice(1).trim())) continue;
      const cost = lineCost(line, countTokens);
      if (used + cost > maxTokens && part.length > 1) {
        parts.push(part);
        part = [hunk[0]];
        used = 0;
      }
      part.push(line);
      used += cost;
    }
    if (part.length > 1) parts.push(part);
  }
  return parts;
}

/**
 * The lookup-only parts of a commit whose chunk was cut, ordinals from 1; `removedLater` holds the
 * lines newer commits removed from each file (addRemovedLines over them).
 */
export function commitFileParts(document: IngestDocument, countTokens: CountTokens, removedLater: RemovedLines = new Map(), maxTokens = FILE_PART_MAX_TOKENS): IngestChunk[] {
  const header = commitHeader(document.text);
  const shortSha = String(document.metadata?.shortSha ?? document.uri.replace(/^commit /, '').slice(0, 7));
  const chunks: IngestChunk[] = [];
  for (const section of fileSections(document.text)) {
    for (const lines of partsOf(section, countTokens, maxTokens, removedLater.get(section.path))) {
      const text = [...header, ...section.head, ...lines].join('\n');
      chunks.push(
        freezeChunk({
          uri: document.uri,
          ordinal: chunks.length + 1,
          title: `${document.title} · ${section.path}`,
          text,
          locator: `commit ${shortSha} · ${section.path}`,
          tokens: countTokens(text),
          metadata: { ...document.metadata, file: section.path },
          lookupOnly: true,
        }),
      );
    }
  }
  return chunks;
}
