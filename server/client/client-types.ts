/**
 * What the HTTP API v1 client sends and gets back. Requests are the v1 zod schemas' inputs (the
 * server parses them with the same objects); answers are the runtime's own published types, which
 * the routes return as JSON unchanged, so code written against the embedded `ContextRuntime` reads
 * a remote answer the same way.
 */
import type { z } from 'zod';
import type { buildContextRequest, explainRequest, goalRequest, runAccepted } from '../api/v1/v1-schemas';
import type { RunProgressEvent, RunResult } from '../runtime';

export type { ContextPassage, ExplainResult, GoalContext, RunProgressEvent, RunResult, SimulateResult } from '../runtime';

/** `goal`, and optionally `sources`, `constraints` (e.g. `{ max_cost_usd: 0.05 }`) and `weights`. */
export type GoalRequest = z.input<typeof goalRequest>;
/** A goal plus `analyze: true` to run the plan and overlay actuals (EXPLAIN ANALYZE). */
export type ExplainRequest = z.input<typeof explainRequest>;
/** A goal plus the `tokenBudget` the passages may fill. */
export type BuildContextRequest = z.input<typeof buildContextRequest>;
/** The answer to a run submitted without waiting: its id and where its events are. */
export type RunAccepted = z.output<typeof runAccepted>;

/** The API's `{ code, message, field }` of a failure, as an event stream reports it. */
export interface ApiErrorBody {
  readonly code: string;
  readonly message: string;
  readonly field: string | null;
}

/** One event of GET /api/v1/runs/:id/events; `id` resumes the stream after it (`lastEventId`). */
export type RunStreamEvent =
  | { readonly type: 'progress'; readonly id?: string; readonly event: RunProgressEvent }
  | { readonly type: 'result'; readonly id?: string; readonly result: RunResult }
  | { readonly type: 'error'; readonly id?: string; readonly error: ApiErrorBody };
