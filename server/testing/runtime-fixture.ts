/**
 * Opens the whole runtime the way the server and CLI do (`ContextRuntime.fromConfig` over the
 * factory server/bootstrap registers) on a throwaway embedded database in a temp directory, with
 * the demo corpus loaded on start. Integration tests share one per file: a PGlite open costs 1–3 s.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { stringify } from 'yaml';
import type { Database } from '../../db/client';
import { ContextRuntime, runtimeFactoryFor } from '../bootstrap';
import { serverEnvWith, type ServerEnv } from '../config/env';
import { registeredRuntimeFactory, registerRuntimeFactory } from '../runtime/facade/runtime-factory';
import type { RuntimePlugins } from '../runtime/facade/runtime-plugins';

/** Tables a rejected request must leave untouched (validation happens before any write). */
export const WRITTEN_BY_RUNS = ['runs', 'run_nodes', 'spans', 'plan_cache', 'cost_observations', 'approval_audit'] as const;
export type RuntimeTable = (typeof WRITTEN_BY_RUNS)[number] | 'sources' | 'source_versions' | 'chunks';

export interface RuntimeFixture {
  readonly runtime: ContextRuntime;
  /** Temp root: holds the config file, the data dir and the demo git work folder. */
  readonly root: string;
  readonly dataDir: string;
  readonly configPath: string;
  /** The plugins bootstrap wired for this runtime (store, run store, plan cache…). */
  readonly plugins: RuntimePlugins;
  readonly database: Database;
  count(table: RuntimeTable): Promise<number>;
  counts(tables?: readonly RuntimeTable[]): Promise<Record<string, number>>;
  /** Writes `text` to `<root>/<name>/<file>` and returns the folder: a source to ingest beside the demo. */
  writeSource(name: string, file: string, text: string): string;
  /** Closes the runtime and opens a new one on the same data dir and config: a process restart. */
  restart(): Promise<RuntimeFixture>;
  /** Closes the runtime; with `remove` (default) deletes the temp root. */
  close(options?: { readonly remove?: boolean }): Promise<void>;
}

export interface RuntimeFixtureOptions {
  /** Extra YAML config merged over `database.data_dir` (top-level keys replace). */
  readonly config?: Record<string, unknown>;
  /** Directory to use as the root (created if missing); default: a fresh mkdtemp. An existing config file there is kept unless `config` is given. */
  readonly root?: string;
}

// Bootstrap registers its factory at import time; wrapping it lets tests reach the real plugins
// (e.g. the database handle for row counts) without a second, divergent wiring.
if (!registeredRuntimeFactory()) throw new Error('server/bootstrap did not register a runtime factory');
let lastPlugins: RuntimePlugins | undefined;
/**
 * The process environment without CONTEXT_RUNTIME_DATA_DIR, read at each open: env beats config in
 * bootstrap, and a stray override would point every test at one shared directory.
 */
const fixtureEnv = (): ServerEnv => serverEnvWith({ CONTEXT_RUNTIME_DATA_DIR: undefined });
registerRuntimeFactory(async (config, options) => {
  const plugins = await runtimeFactoryFor(fixtureEnv())(config, options);
  lastPlugins = plugins;
  return plugins;
});

function databaseOf(plugins: RuntimePlugins): Database {
  // PgStore keeps its handle private; a test reads it to count rows the public API cannot.
  const database = (plugins.store as unknown as { database?: Database }).database;
  if (!database) throw new Error('runtime store has no database handle (not a PgStore?)');
  return database;
}

export function writeConfig(path: string, config: Record<string, unknown>): void {
  writeFileSync(path, stringify(config));
}

export async function openRuntimeFixture(options: RuntimeFixtureOptions = {}): Promise<RuntimeFixture> {
  const root = options.root ?? mkdtempSync(join(tmpdir(), 'context-runtime-it-'));
  mkdirSync(root, { recursive: true });
  const dataDir = join(root, 'pglite');
  const configPath = join(root, 'context-runtime.yaml');
  if (options.config || !existsSync(configPath)) writeConfig(configPath, { database: { data_dir: dataDir }, ...options.config });
  lastPlugins = undefined;
  const runtime = await ContextRuntime.fromConfig(configPath);
  const plugins = lastPlugins as RuntimePlugins | undefined;
  if (!plugins) throw new Error('runtime factory wrapper did not see the plugins');
  const database = databaseOf(plugins);

  const count = async (table: RuntimeTable) => {
    const [row] = await database.query<{ count: number }>(sql`select count(*)::int as count from ${sql.identifier(table)}`);
    return Number(row.count);
  };
  const fixture: RuntimeFixture = {
    runtime,
    root,
    dataDir,
    configPath,
    plugins,
    database,
    count,
    async counts(tables = WRITTEN_BY_RUNS) {
      const entries = await Promise.all(tables.map(async (table) => [table, await count(table)] as const));
      return Object.fromEntries(entries);
    },
    writeSource(name, file, text) {
      const dir = join(root, name);
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, file), text);
      return dir;
    },
    async restart() {
      await runtime.close();
      return openRuntimeFixture({ root });
    },
    async close({ remove = true } = {}) {
      await runtime.close();
      if (remove) rmSync(root, { recursive: true, force: true });
    },
  };
  return fixture;
}
