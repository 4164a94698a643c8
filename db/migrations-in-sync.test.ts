/**
 * The schema (db/schema), the migrations (drizzle/*.sql), the journal and the latest snapshot agree:
 * drizzle-kit can continue the history, and a database built by the migrations is the schema.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXTENSION_ONLY_COLUMNS, reapplyCapabilityMigration } from './capability-migration';
import { type Database, openDatabase } from './client';
import { defaultMigrationsFolder, migrateDatabase } from './migrate';
import { journalProblems, readJournalEntries } from './migration-journal';

const folder = defaultMigrationsFolder();
const entries = readJournalEntries(folder);

interface SnapshotColumn { readonly name: string; readonly notNull: boolean }
interface Snapshot { readonly tables: Record<string, { readonly name: string; readonly columns: Record<string, SnapshotColumn> }> }

describe('migration history', () => {
  it('has one journal entry per file, numbered without gaps and stamped in order', () => {
    expect(journalProblems(entries)).toEqual([]);
    const files = readdirSync(folder).filter((name) => name.endsWith('.sql')).map((name) => name.replace(/\.sql$/, ''));
    expect(files.sort()).toEqual(entries.map((entry) => entry.tag));
    const last = entries.at(-1)!;
    expect(readdirSync(path.join(folder, 'meta'))).toContain(`${last.tag.slice(0, 4)}_snapshot.json`);
  });

  it('reports a migration stamped before its predecessor (the migrator would skip it)', () => {
    const stale = [...entries, { idx: entries.length, tag: `${String(entries.length).padStart(4, '0')}_new`, when: 1 }];
    expect(journalProblems(stale)).toEqual([expect.stringContaining('not after')]);
  });

  it('drizzle-kit generate on the current schema writes no migration', () => {
    const scratch = mkdtempSync(path.join(os.tmpdir(), 'drizzle-sync-'));
    try {
      cpSync(folder, scratch, { recursive: true });
      const kit = drizzleKitBin();
      const root = path.resolve(folder, '..');
      // drizzle-kit prefixes `--out` with "./", so it must be relative; it also exits 0 on errors, hence the stdout check.
      const run = spawnSync(process.execPath, [kit, 'generate', '--dialect', 'postgresql', '--schema', './db/schema/index.ts', '--out', path.relative(root, scratch)], {
        encoding: 'utf8',
        cwd: root,
      });
      expect(run.status, run.stderr).toBe(0);
      expect(run.stdout).toContain('No schema changes');
      expect(readdirSync(scratch).filter((name) => name.endsWith('.sql')).length).toBe(entries.length);
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
  });
});

/** drizzle-kit's CLI entry; its package exports no subpath for it, so it is found beside the main entry. */
function drizzleKitBin(): string {
  return path.join(path.dirname(createRequire(import.meta.url).resolve('drizzle-kit')), 'bin.cjs');
}

describe('a database built by the migrations', () => {
  let database: Database;
  beforeAll(async () => {
    database = await openDatabase({ dataDir: 'memory://migrations-in-sync' });
    await migrateDatabase(database);
  });
  afterAll(async () => database?.close());

  it('has exactly the tables and columns of the latest snapshot, nullability included', async () => {
    const last = entries.at(-1)!;
    const snapshot = JSON.parse(readFileSync(path.join(folder, 'meta', `${last.tag.slice(0, 4)}_snapshot.json`), 'utf8')) as Snapshot;
    const expected = Object.values(snapshot.tables)
      .flatMap((table) => Object.values(table.columns).map((column) => `${table.name}.${column.name} ${column.notNull ? 'not null' : 'null'}`))
      .concat(EXTENSION_ONLY_COLUMNS.map((column) => `${column} null`))
      .sort();
    const rows = await database.query<{ table_name: string; column_name: string; is_nullable: string }>(
      sql`select table_name, column_name, is_nullable from information_schema.columns where table_schema = 'public' order by 1, 2`,
    );
    const actual = rows.map((row) => `${row.table_name}.${row.column_name} ${row.is_nullable === 'NO' ? 'not null' : 'null'}`).sort();
    expect(actual).toEqual(expected);
  });

  it('re-runs the capability migration at start without error or change', async () => {
    const indexes = sql`select indexname from pg_indexes where schemaname = 'public' order by 1`;
    const before = await database.query(indexes);
    await reapplyCapabilityMigration(database, folder);
    expect(await database.query(indexes)).toEqual(before);
    expect(before.map((row) => row.indexname)).toEqual(expect.arrayContaining(['chunks_bm25_idx', 'chunk_embeddings_sif_sg_100d_hnsw_idx']));
  });
});
