import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_textsearch } from '@electric-sql/pglite-pg_textsearch';
import { vector } from '@electric-sql/pglite-pgvector';
import type { SQL } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { drizzle as drizzlePostgres } from 'drizzle-orm/postgres-js';
import postgres from 'postgres';
import { ContextRuntimeError } from '../server/runtime/errors';
import { runInBackground } from '../server/runtime/scheduler/request-priority';
import { ForegroundFirst } from './foreground-first';
import { withoutStatementDeadline, withStatementDeadline } from './statement-deadline';
import * as schema from './schema';

export type DatabaseSchema = typeof schema;
export type DatabaseDriver = 'pglite' | 'postgres';
/** The drizzle instance both drivers share; plugins are written against this and nothing narrower. */
export type DrizzleDatabase = PgDatabase<PgQueryResultHKT, DatabaseSchema>;
export type DrizzleTransaction = Parameters<Parameters<DrizzleDatabase['transaction']>[0]>[0];

export interface Database {
  readonly db: DrizzleDatabase;
  readonly driver: DatabaseDriver;
  /** The data directory, or the server URL with its password masked: safe to print. */
  readonly location: string;
  /** Runs one parameterised statement (drizzle `sql` template) and returns its rows. */
  query<Row extends Record<string, unknown>>(statement: SQL): Promise<Row[]>;
  /** Runs raw SQL that may hold several statements and no parameters (DDL, DO blocks). */
  exec(text: string): Promise<void>;
  /**
   * Runs `work` while holding a cluster-wide advisory lock named `key` (server), so two instances
   * starting together do not both migrate. Embedded PGlite has one process by construction
   * (server/services/data-dir-lock.ts), so there it simply runs `work`.
   */
  withExclusiveLock<T>(key: string, work: () => Promise<T>): Promise<T>;
  /**
   * Runs `work` (an ingest and the indexes after it) behind requests: on embedded PGlite, its
   * statements wait while a request's are running or queued (foreground-first.ts). A server has a
   * pool of connections, so there it simply runs `work`.
   */
  runInBackground<T>(work: () => Promise<T>): Promise<T>;
  /**
   * Runs `work` whose statements may legitimately take long (start-up backfills, the knowledge
   * sync) without the server's per-statement deadline (statement-deadline.ts). Embedded PGlite has none.
   */
  withoutDeadline<T>(work: () => Promise<T>): Promise<T>;
  /**
   * One connection of the server's pool held for the caller alone (session-level state: advisory
   * locks held for a process's lifetime). Absent on embedded PGlite, which has one session.
   */
  reserveSession?(): Promise<ReservedSession>;
  close(): Promise<void>;
}

export interface ReservedSession {
  /** Runs one statement with `$1…` parameters on this session. */
  query<Row extends Record<string, unknown>>(text: string, parameters: readonly (string | number)[]): Promise<Row[]>;
  /** Gives the connection back to the pool (its session state, such as locks, stays until the session ends). */
  release(): void;
}

export interface OpenDatabaseOptions {
  /** Embedded PGlite directory ("memory://" for a throwaway database). Ignored when `url` is set. */
  readonly dataDir?: string;
  /** postgres:// URL of a PostgreSQL server. */
  readonly url?: string;
  /** database.statement_deadline_ms: a server statement unanswered this long fails (statement-deadline.ts). */
  readonly statementDeadlineMs?: number;
}

/** Opens PGlite (embedded default) or a PostgreSQL server through postgres.js. */
export async function openDatabase(options: OpenDatabaseOptions): Promise<Database> {
  if (options.url) return openServer(options.url, options.statementDeadlineMs ?? DEFAULT_STATEMENT_DEADLINE_MS);
  if (options.dataDir) return openEmbedded(options.dataDir);
  throw new ContextRuntimeError('INVALID_CONFIG', 'database: set database.data_dir or database.url (or DATABASE_URL)', { field: 'database' });
}

async function openEmbedded(dataDir: string): Promise<Database> {
  const inMemory = dataDir.startsWith('memory://');
  const location = inMemory ? dataDir : path.resolve(dataDir);
  // PGlite creates the data directory itself but not its parents (./.data on a fresh clone).
  if (!inMemory) mkdirSync(path.dirname(location), { recursive: true });
  const client = await PGlite.create({ dataDir: location, extensions: { vector, pg_textsearch } });
  // Every way in (drizzle calls query and transaction; migrations call exec) passes the gate.
  const gate = new ForegroundFirst();
  client.query = gate.wrap(client.query.bind(client)) as typeof client.query;
  client.exec = gate.wrap(client.exec.bind(client));
  client.transaction = gate.wrap(client.transaction.bind(client)) as typeof client.transaction;
  const db = drizzlePglite({ client, schema }) as unknown as DrizzleDatabase;
  return Object.freeze({
    db,
    driver: 'pglite' as const,
    location,
    query: async <Row extends Record<string, unknown>>(statement: SQL) => rowsOf<Row>(await db.execute(statement)),
    exec: async (text: string) => {
      await client.exec(text);
    },
    withExclusiveLock: <T>(_key: string, work: () => Promise<T>) => work(),
    runInBackground: <T>(work: () => Promise<T>) => gate.runInBackground(work),
    withoutDeadline: <T>(work: () => Promise<T>) => work(),
    close: async () => {
      if (!client.closed) await client.close();
    },
  });
}

/** The config's default (config-schema.ts): no statement a request or a run makes should take a minute. */
const DEFAULT_STATEMENT_DEADLINE_MS = 60_000;

/**
 * Seconds before a lost connection reconnects, by failed attempts (pool-wide). postgres.js's own
 * grows to 20 s: after an outage, statements waited that long behind reconnects to a server
 * already back (a 4 s cut left some unanswered 15 s later). Capped at 2 s; a reconnect is cheap.
 */
const reconnectBackoff = (attempts: number) => Math.min(0.1 * 2 ** attempts, 2) * (0.5 + Math.random() / 2);

async function openServer(url: string, statementDeadlineMs: number): Promise<Database> {
  // Notices (CREATE ... IF NOT EXISTS, the optional-extension warnings) are expected during
  // migration; postgres.js would print each one to stdout.
  const client = postgres(url, { onnotice: () => {}, max: 10, backoff: reconnectBackoff });
  const db = drizzlePostgres({ client: withStatementDeadline(client, statementDeadlineMs), schema }) as unknown as DrizzleDatabase;
  // drizzle makes postgres.js pass timestamp parameters through untouched (its columns serialise
  // themselves), so a Date bound in raw sql`…` would reach the wire as an object and fail; PGlite
  // accepts it. Serialise Dates as ISO strings, leave strings as they are.
  const serializers = client.options.serializers as unknown as Record<string, (value: unknown) => unknown>;
  for (const type of ['1082', '1114', '1184']) serializers[type] = (value) => (value instanceof Date ? value.toISOString() : value);
  try {
    await client`select 1`;
  } catch (error) {
    await client.end({ timeout: 1 }).catch(() => undefined);
    throw new ContextRuntimeError('INVALID_CONFIG', `database: cannot connect to ${maskPassword(url)}: ${(error as Error).message}`, {
      field: 'database.url',
      cause: error,
    });
  }
  return Object.freeze({
    db,
    driver: 'postgres' as const,
    location: maskPassword(url),
    query: async <Row extends Record<string, unknown>>(statement: SQL) => rowsOf<Row>(await db.execute(statement)),
    exec: async (text: string) => {
      await client.unsafe(text).simple();
    },
    withExclusiveLock: async <T>(key: string, work: () => Promise<T>) => {
      // Session-level lock on a connection of its own: the work may use any pooled connection.
      const holder = await client.reserve();
      try {
        await holder`select pg_advisory_lock(hashtext(${key}))`;
        return await work();
      } finally {
        await holder`select pg_advisory_unlock(hashtext(${key}))`.catch(() => undefined);
        holder.release();
      }
    },
    // An ingest's statements (large batches, index builds) are not bound by the deadline; its
    // JS time slices still wait for requests (the pool serves statements side by side).
    runInBackground: <T>(work: () => Promise<T>) => withoutStatementDeadline(() => runInBackground(work)),
    withoutDeadline: <T>(work: () => Promise<T>) => withoutStatementDeadline(work),
    reserveSession: async () => {
      const holder = await client.reserve();
      let lost = false;
      return {
        query: async <Row extends Record<string, unknown>>(text: string, parameters: readonly (string | number)[]) => {
          try {
            return [...(await holder.unsafe(text, [...parameters]))] as unknown as Row[];
          } catch (error) {
            lost ||= isConnectionLost(error);
            throw error;
          }
        },
        // A lost connection is back in the pool already (postgres.js 3.4.9 files it as closed, to
        // reconnect); releasing it would file it as open, and the next query written to its dead
        // socket throws a TypeError in nextWrite and leaves every query queued on it unanswered.
        release: () => {
          if (!lost) holder.release();
        },
      };
    },
    close: async () => {
      await client.end({ timeout: 5 });
    },
  });
}

/** postgres.js's own errors for a connection that is gone, and the socket's. */
const CONNECTION_LOST = new Set(['CONNECTION_CLOSED', 'CONNECTION_DESTROYED', 'CONNECTION_ENDED', 'ECONNRESET', 'ECONNREFUSED', 'EPIPE', 'ETIMEDOUT']);

function isConnectionLost(error: unknown): boolean {
  return CONNECTION_LOST.has(String((error as { code?: unknown } | null)?.code ?? ''));
}

/** PGlite returns { rows }, postgres.js an array of rows (also for `tx.execute` inside a transaction). */
export function rowsOf<Row>(result: unknown): Row[] {
  if (Array.isArray(result)) return [...result] as Row[];
  return ((result as { rows?: Row[] }).rows ?? []) as Row[];
}

export function maskPassword(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '****';
    return parsed.toString();
  } catch {
    return 'postgres://(unparseable url)';
  }
}
