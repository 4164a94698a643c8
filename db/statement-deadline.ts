/**
 * A deadline on every statement drizzle sends to a PostgreSQL server (issue 13). During an outage
 * postgres.js 3.4.9 may leave a statement unanswered for good (a query queued on a connection that
 * died, or behind reconnects backing off), and a run waiting on it never reaches its failure
 * handling: it stayed `running` beside its live owner, where no recovery takes it. Bounded, the
 * statement fails with a TIMEOUT the caller handles like any lost connection.
 *
 * Work whose statements may legitimately run long (an ingest, start-up backfills) runs inside
 * `withoutStatementDeadline`; migrations and the session-level locks use the raw client.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { PendingQuery, Sql } from 'postgres';
import { ContextRuntimeError } from '../server/runtime/errors';

const exempt = new AsyncLocalStorage<true>();

/** Runs `work` with no deadline on the statements it issues (read when each statement is made). */
export function withoutStatementDeadline<T>(work: () => Promise<T>): Promise<T> {
  return exempt.run(true, work);
}

/** The client drizzle is given: `unsafe` (every drizzle statement) and the statements of its transactions are bounded. */
export function withStatementDeadline(client: Sql, deadlineMs: number): Sql {
  return new Proxy(client, {
    get(target, key) {
      const value: unknown = Reflect.get(target, key);
      if (key === 'unsafe') return (...args: Parameters<Sql['unsafe']>) => bounded(target.unsafe(...args), deadlineMs);
      if ((key === 'begin' || key === 'savepoint') && typeof value === 'function') {
        return (...args: unknown[]) => {
          const work = args.pop() as (scope: Sql) => Promise<unknown>;
          const open = (scoped: (scope: Sql) => Promise<unknown>) => (value as (...all: unknown[]) => Promise<unknown>).call(target, ...args, scoped);
          return exempt.getStore() ? open(work) : boundedTransaction(open, work, deadlineMs);
        };
      }
      return value;
    },
  });
}

/**
 * A transaction's statements go through the scope it hands its callback, bounded the same way.
 * Its begin and its commit postgres.js issues itself: each gets the deadline from outside (the
 * clock runs while the callback has not started, and again once it has returned).
 */
function boundedTransaction(open: (scoped: (scope: Sql) => Promise<unknown>) => Promise<unknown>, work: (scope: Sql) => Promise<unknown>, deadlineMs: number): Promise<unknown> {
  return new Promise((resolve, reject) => {
    let expired = false;
    const arm = () =>
      unrefed(
        setTimeout(() => {
          expired = true;
          reject(timedOut(deadlineMs));
        }, deadlineMs),
      );
    let timer = arm();
    open(async (scope) => {
      clearTimeout(timer);
      // Its caller was told it failed: a begin answered late must not run the work (thrown: rolled back).
      if (expired) throw timedOut(deadlineMs);
      try {
        return await work(withStatementDeadline(scope, deadlineMs));
      } finally {
        timer = arm();
      }
    }).then(
      (answer) => {
        clearTimeout(timer);
        resolve(answer);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}

/** A process otherwise done is not kept alive by a statement's deadline. */
function unrefed(timer: NodeJS.Timeout): NodeJS.Timeout {
  timer.unref?.();
  return timer;
}

const timedOut = (deadlineMs: number) => new ContextRuntimeError('TIMEOUT', `the database did not answer within ${deadlineMs} ms (database.statement_deadline_ms)`);

/**
 * The statement as drizzle uses it (`.values()`, then awaited), answered or failed within the
 * deadline. postgres.js runs a statement when it is first awaited, so the race starts then.
 */
function bounded<Rows extends readonly object[]>(query: PendingQuery<Rows>, deadlineMs: number): PendingQuery<Rows> {
  if (exempt.getStore()) return query;
  let answer: Promise<unknown> | undefined;
  const settle = () => (answer ??= race(query, deadlineMs));
  const view = {
    values() {
      query.values();
      return view;
    },
    then: (onAnswer?: (rows: unknown) => unknown, onFailure?: (error: unknown) => unknown) => settle().then(onAnswer, onFailure),
    catch: (onFailure?: (error: unknown) => unknown) => settle().catch(onFailure),
    finally: (onSettled?: () => void) => settle().finally(onSettled),
    cancel: () => query.cancel(),
  };
  return view as unknown as PendingQuery<Rows>;
}

/** What `race` needs of a pending statement: to be awaited, and withdrawn; `state` is set once a connection took it (postgres.js). */
type Withdrawable = PromiseLike<unknown> & { cancel(): unknown; readonly state?: unknown };

/** The fields of a postgres.js 3.4 query that `withdraw` rewrites (not in its typings). */
interface QueryInternals {
  cancelled: unknown;
  strings: readonly string[];
  args: readonly unknown[];
  options: Record<string, unknown>;
}

/**
 * Withdraws a statement no connection has sent yet. `cancel()` takes it out of the pool's queue
 * and rejects it; but a statement a connection is opening for (its first, held by the connection,
 * not the queue) stays with that connection marked cancelled, and postgres.js 3.4.9 and 3.4.10
 * then open the connection, skip the statement and never hand the connection back to the pool.
 * After an outage longer than the deadline every connection ended that way and the pool never
 * answered again (CI, 2026-12-05). So the withdrawn statement is also made harmless, and no
 * longer marked cancelled: held by a connection, it runs as `select 1` and the connection opens.
 */
function withdraw(query: Withdrawable): void {
  query.cancel();
  const internals = query as unknown as QueryInternals;
  internals.cancelled = null;
  internals.strings = ['select 1'];
  internals.args = [];
  internals.options = { ...internals.options, simple: true };
}

function race(query: Withdrawable, deadlineMs: number): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const timer = unrefed(setTimeout(() => {
      reject(timedOut(deadlineMs));
      // Withdrawn while still waiting for a connection: it must not run later, behind a caller told
      // it failed (an insert landing after its run's failure was recorded would leave it `running`).
      // Not once sent: postgres.js 3.4.9 then cancels over a new connection and drops that
      // promise, so a cancel failing during the outage would surface as an unhandled rejection.
      if (query.state == null) withdraw(query);
    }, deadlineMs));
    query.then(
      (rows) => {
        clearTimeout(timer);
        resolve(rows);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}
