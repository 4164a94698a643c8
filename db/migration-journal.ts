import { readFileSync } from 'node:fs';
import path from 'node:path';

export interface JournalEntry {
  readonly idx: number;
  readonly tag: string;
  readonly when: number;
}

export const journalPath = (folder: string): string => path.join(folder, 'meta', '_journal.json');

export function readJournalEntries(folder: string): readonly JournalEntry[] {
  return (JSON.parse(readFileSync(journalPath(folder), 'utf8')) as { entries: JournalEntry[] }).entries;
}

/**
 * What is wrong with a journal's order, in words (empty when nothing is). drizzle's migrator applies
 * only migrations whose `when` is later than the newest one a database has applied, so a migration
 * stamped earlier than its predecessor (drizzle-kit stamps Date.now(), and 0009–0015 carry hand-set
 * stamps) would be skipped silently on every existing database.
 */
export function journalProblems(entries: readonly JournalEntry[]): string[] {
  const problems: string[] = [];
  entries.forEach((entry, position) => {
    if (entry.idx !== position) problems.push(`entry ${position} (${entry.tag}) has idx ${entry.idx}`);
    if (!entry.tag.startsWith(String(position).padStart(4, '0'))) problems.push(`entry ${position} has tag ${entry.tag}`);
    const previous = entries[position - 1];
    if (previous && entry.when <= previous.when) problems.push(`${entry.tag} is stamped ${entry.when}, not after ${previous.tag} (${previous.when})`);
  });
  return problems;
}
