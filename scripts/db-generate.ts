/**
 * `npm run db:generate [-- --name=… | --custom …]`: drizzle-kit generate, then restamps the new
 * journal entries so each is later than the one before it. drizzle-kit stamps Date.now(), and the
 * journal holds hand-set stamps ahead of the clock (0009–0015); an earlier stamp would make drizzle's
 * migrator skip the new migration on every database that applied those (see db/migration-journal.ts).
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { journalPath } from '../db/migration-journal';

const folder = 'drizzle';
// drizzle-kit exports no subpath for its CLI entry; it sits beside the main entry.
const kit = path.join(path.dirname(createRequire(import.meta.url).resolve('drizzle-kit')), 'bin.cjs');
const result = spawnSync(process.execPath, [kit, 'generate', ...process.argv.slice(2)], { stdio: 'inherit' });
if (result.status !== 0) process.exit(result.status ?? 1);

const journal = JSON.parse(readFileSync(journalPath(folder), 'utf8')) as { entries: { tag: string; when: number }[] };
let restamped = 0;
journal.entries.forEach((entry, position) => {
  const previous = journal.entries[position - 1];
  if (previous && entry.when <= previous.when) {
    entry.when = previous.when + 1000;
    restamped += 1;
    console.log(`restamped ${entry.tag}: ${entry.when} (after ${previous.tag})`);
  }
});
if (restamped > 0) writeFileSync(journalPath(folder), `${JSON.stringify(journal, null, 2)}\n`);
