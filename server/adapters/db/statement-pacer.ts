/**
 * Batch sizes that follow a time budget instead of a fixed row count (issue 13, bench:ingest-load).
 * Embedded PGlite runs each statement synchronously on the server's thread, so a statement's run
 * time is time no request gets, sign-in included. A fixed count cannot hold a budget: the same 64
 * rows into the live HNSW index took 30 ms on an idle core and 693 ms with the machine loaded, and
 * 500 search-vector rows up to 1,558 ms. Each statement here is timed and the next batch resized
 * toward the target (at most ×2 or ÷4 a step), and the event loop turns between two statements.
 *
 * Timed in the process's CPU time, not wall time: on a machine loaded past its cores (load 30 on 2
 * in bench:ingest-load) a one-row statement took 500 ms of wall time while the process waited for a
 * core. Shrinking batches cannot win that time back (the requests wait for the core too); by wall
 * time the pacer fell to one row a statement and the ingest ran 15× longer, stalling requests
 * longer in all. CPU time also counts the process's other threads (a sign-in's scrypt), which only
 * errs toward smaller batches.
 */
import { nextTurn } from '../../runtime/scheduler/time-slice';

/** A person notices ~100 ms; half of that leaves room for the request's own queries and work. */
export const STATEMENT_TARGET_MS = 40;
/** Below this a statement's fixed cost (parse, plan, index descent) dominates: smaller batches only slow the load. */
const DEFAULT_MIN_ROWS = 8;

/** Milliseconds of CPU this process has used (user + system, all threads). */
export const processCpuMs = (): number => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

export interface StatementPacerOptions {
  /** Rows of the first statement, before any has been timed. */
  readonly initialRows: number;
  /** Never more rows than this (the old fixed batch size: one JSON parameter stays small). */
  readonly maxRows: number;
  /** Never fewer rows than this (default 8, or maxRows when smaller). */
  readonly minRows?: number;
  readonly targetMs?: number;
  /** The clock: the process's CPU time by default (tests pass their own). */
  readonly now?: () => number;
}

export class StatementPacer {
  private size: number;
  private readonly minRows: number;
  private readonly targetMs: number;
  private readonly now: () => number;

  constructor(private readonly options: StatementPacerOptions) {
    this.minRows = Math.max(1, Math.floor(Math.min(options.minRows ?? DEFAULT_MIN_ROWS, options.maxRows)));
    this.targetMs = options.targetMs ?? STATEMENT_TARGET_MS;
    this.now = options.now ?? processCpuMs;
    this.size = this.clamp(options.initialRows);
  }

  /** Rows the next statement should touch. */
  get rows(): number {
    return this.size;
  }

  /** Runs one batch with the current size, resizes from its time, then gives the event loop a turn. */
  async run<T>(batch: (rows: number) => Promise<T>): Promise<T> {
    const started = this.now();
    const result = await batch(this.size);
    this.record(this.now() - started);
    await nextTurn();
    return result;
  }

  /** Resizes from one batch's time: proportionally toward the target, damped so one outlier does not swing it far. */
  record(elapsedMs: number): void {
    const ratio = this.targetMs / Math.max(1, elapsedMs);
    this.size = this.clamp(this.size * Math.min(2, Math.max(0.25, ratio)));
  }

  private clamp(rows: number): number {
    return Math.min(Math.max(1, Math.floor(this.options.maxRows)), Math.max(this.minRows, Math.floor(rows)));
  }
}
