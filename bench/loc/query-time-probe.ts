/**
 * Where a pipeline's database time goes (`npm run bench:loc -- --queries`): wraps PGlite's query,
 * exec and transaction on the prototype, so both pipelines' engines are seen, and sums wall time,
 * calls, bound-parameter size and rows per statement. Wall time from call to result: PGlite runs
 * one statement at a time, so a statement queued behind another counts its wait too.
 */
import { PGlite, type Transaction } from '@electric-sql/pglite';

export interface StatementTime {
  readonly statement: string;
  calls: number;
  ms: number;
  parameterBytes: number;
  rows: number;
}

type Query = PGlite['query'];
type Exec = PGlite['exec'];

export function startQueryTimeProbe() {
  const byStatement = new Map<string, StatementTime>();
  let recording = false;
  const record = (sql: string, ms: number, parameters: readonly unknown[] | undefined, rows: number) => {
    if (!recording) return;
    const statement = sql.replace(/\s+/g, ' ').trim().slice(0, 100);
    const entry = byStatement.get(statement) ?? { statement, calls: 0, ms: 0, parameterBytes: 0, rows: 0 };
    entry.calls += 1;
    entry.ms += ms;
    entry.rows += rows;
    entry.parameterBytes += parameters ? JSON.stringify(parameters).length : 0;
    byStatement.set(statement, entry);
  };
  const timeQueries = (target: { query: Query; exec: Exec }) => {
    const query = target.query;
    const exec = target.exec;
    target.query = async function (this: unknown, sql, parameters, options) {
      const started = performance.now();
      const result = await query.call(this, sql, parameters, options);
      record(sql, performance.now() - started, parameters, result.rows.length);
      return result;
    } as Query;
    target.exec = async function (this: unknown, sql, options) {
      const started = performance.now();
      const result = await exec.call(this, sql, options);
      record(sql, performance.now() - started, undefined, 0);
      return result;
    } as Exec;
  };
  timeQueries(PGlite.prototype);
  const transaction = PGlite.prototype.transaction;
  PGlite.prototype.transaction = async function <T>(this: PGlite, callback: (tx: Transaction) => Promise<T>) {
    return transaction.call(this, (tx: Transaction) => {
      timeQueries(tx as unknown as { query: Query; exec: Exec });
      return callback(tx);
    }) as Promise<T>;
  };
  return {
    /** Counts statements from now until stop(), from zero. */
    start() {
      byStatement.clear();
      recording = true;
    },
    /** The statements seen while recording, costliest first. */
    stop(): StatementTime[] {
      recording = false;
      return [...byStatement.values()].sort((left, right) => right.ms - left.ms);
    },
  };
}
