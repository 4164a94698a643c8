/**
 * What the LangChain.js adapter needs from Context Runtime, whichever way it is reached: the runtime
 * in this process acting as a principal (in-process-runtime-port.ts) or a server's HTTP API v1 acting
 * as an API key (http-runtime-port.ts). Both answer with the same plain shapes and fail with the
 * same ContextRuntimeError codes, so the retriever and the tool cannot tell them apart.
 */
import { ContextRuntimeError } from '../../runtime/errors';
import type { ContextPassage } from '../../runtime/facade/context-for-goal';

export interface ContextRequest {
  readonly goal: string;
  /** Source names to draw from; omitted = every source the principal may read. */
  readonly sources?: readonly string[];
  /** Tokens the passages may fill; omitted = the plan's own budget. */
  readonly tokenBudget?: number;
  /** Plan constraints, e.g. { max_cost_usd: 0.01 }. */
  readonly constraints?: Readonly<Record<string, unknown>>;
}

export type GoalRequest = Omit<ContextRequest, 'tokenBudget'>;

/**
 * One ranked passage, numbered as a model cites it ([1], [2], …): the runtime's own ContextPassage,
 * its kind a plain string because the HTTP API's JSON carries it as one.
 */
export type CitedPassage = Omit<ContextPassage, 'sourceKind'> & { readonly sourceKind: string };

/** A source the plan left out, and why ("not_permitted": the principal may not read it). */
export interface LeftOutSource {
  readonly source: string;
  readonly reason: string;
  readonly detail: string;
}

/** build_context's answer: runtime.contextFor in process, POST /api/v1/build-context over HTTP. */
export interface BuiltContext {
  readonly goal: string;
  readonly planHash: string;
  readonly tokenBudget: number;
  readonly tokens: number;
  readonly passages: readonly CitedPassage[];
  readonly selectedSources: readonly string[];
  readonly rejectedSources: readonly LeftOutSource[];
}

export interface RunCitation {
  readonly ref: number;
  readonly chunkId: string;
  readonly sourceName: string;
  readonly locator?: string;
  readonly quote?: string;
}

/** A run of a goal, waited for to its end (or to a gate it stopped at). */
export interface RunAnswer {
  readonly runId: string;
  readonly status: string;
  readonly answer?: string;
  readonly citations: readonly RunCitation[];
  readonly caveats: readonly string[];
  readonly planHash: string;
  readonly rejectedSources: readonly LeftOutSource[];
  readonly pendingApproval?: { readonly nodeId: string; readonly reason: string };
  readonly error?: string;
}

/** What EXPLAIN says of a goal's plan that the adapter reads: which sources it left out, and why. */
export interface PlanSummary {
  readonly planHash: string;
  readonly selectedSources: readonly string[];
  readonly rejectedSources: readonly LeftOutSource[];
}

export interface ContextRuntimePort {
  /** "this process" or the server's URL, for messages. */
  readonly via: string;
  /** EXPLAIN without running: runtime.explain / POST /api/v1/explain. */
  plan(request: GoalRequest): Promise<PlanSummary>;
  buildContext(request: ContextRequest): Promise<BuiltContext>;
  run(request: GoalRequest): Promise<RunAnswer>;
}

/**
 * A source the caller named but may not read is refused, not quietly left out: the runtime's plan
 * drops it (and answers from the rest), which a caller of a retriever would never notice.
 */
export function refuseUnreadableSources(requested: readonly string[] | undefined, rejected: readonly LeftOutSource[]): void {
  if (!requested) return;
  const refused = rejected.filter((source) => source.reason === 'not_permitted' && requested.includes(source.source));
  if (refused.length === 0) return;
  const names = refused.map((source) => `"${source.source}"`).join(', ');
  throw new ContextRuntimeError('FORBIDDEN', `sources: you may not read ${names}`, { field: 'sources', details: { sources: refused.map((source) => source.source) } });
}
