/**
 * The HTTP API v1, one entry per route: method, path, role, request and response schemas (which
 * the OpenAPI document is generated from) and the handler — zod input → one runtime call → JSON.
 * The Next.js route files under app/api/v1 only hand requests to these handlers.
 */
import type { z } from 'zod';
import type { Role } from '../../auth/roles';
import { startLiveRun } from '../live-run-registry';
import { runEventStream } from './run-event-stream';
import { type EndpointCall, handleEndpoint, type InputOf, type V1Context } from './v1-endpoint';
import * as schemas from './v1-schemas';

export type RouteParams = Readonly<Record<string, string>>;

export interface V1Route {
  readonly operationId: string;
  readonly method: 'get' | 'post';
  /** OpenAPI path template: /api/v1/runs/{id}. */
  readonly path: string;
  readonly role: Role;
  readonly summary: string;
  readonly body?: z.ZodType;
  /** Response schemas by status; `stream` marks a text/event-stream response. */
  readonly responses: Readonly<Record<number, { readonly description: string; readonly schema: z.ZodType; readonly stream?: boolean }>>;
  readonly handle: (request: Request, context: V1Context, params: RouteParams) => Promise<Response>;
}

type RouteMeta = Omit<V1Route, 'handle' | 'body'>;

/** A route from its description and its one runtime call; the role and body schema are stated once, here. */
function defineRoute<Schema extends z.ZodType | undefined>(meta: RouteMeta & { readonly body: Schema }, call: (args: EndpointCall<InputOf<Schema>> & { readonly params: RouteParams }) => Promise<unknown>): V1Route {
  const route = `${meta.method.toUpperCase()} ${meta.path}`;
  return Object.freeze({
    ...meta,
    body: meta.body,
    handle: (request: Request, context: V1Context, params: RouteParams) => handleEndpoint(request, context, { route, role: meta.role, body: meta.body }, (args) => call({ ...args, params })),
  });
}

const runIdOf = (params: RouteParams): string => schemas.runIdParameter.parse(params.id);

const runs = defineRoute(
  {
    operationId: 'submitRun',
    method: 'post',
    path: '/api/v1/runs',
    role: 'operator',
    summary: 'Submit a goal: plan and run it. Answers with the run id at once (202), or with the whole result when `wait` is true (200).',
    body: schemas.runSubmitRequest,
    responses: {
      200: { description: 'The run has ended (wait: true).', schema: schemas.runResult },
      202: { description: 'The run has started; follow it at `events`.', schema: schemas.runAccepted },
    },
  },
  async ({ runtime, principal, input: { wait, ...goal } }) => {
    if (wait) return runtime.run({ ...goal, principal });
    const runId = await startLiveRun(runtime, { ...goal, principal });
    return Response.json({ runId, status: 'running', events: `/api/v1/runs/${encodeURIComponent(runId)}/events` }, { status: 202 });
  },
);

const getRun = defineRoute(
  {
    operationId: 'getRun',
    method: 'get',
    path: '/api/v1/runs/{id}',
    role: 'viewer',
    summary: 'A run: its status, answer, citations and plan. A run the key may not read is reported as not found.',
    body: undefined,
    responses: { 200: { description: 'The run.', schema: schemas.runResult } },
  },
  async ({ runtime, principal, params }) => (await runtime.getRun(runIdOf(params), principal)).run,
);

const runEvents = defineRoute(
  {
    operationId: 'runEvents',
    method: 'get',
    path: '/api/v1/runs/{id}/events',
    role: 'viewer',
    summary: "A run's progress as server-sent events (progress per node, then the result); Last-Event-ID resumes.",
    body: undefined,
    responses: { 200: { description: 'text/event-stream; each data line is one JSON event.', schema: schemas.runEvent, stream: true } },
  },
  async ({ runtime, principal, params, request }) => {
    const runId = runIdOf(params);
    // Asked first: an id the key may not read is a 404 before a stream opens.
    await runtime.getRun(runId, principal);
    return runEventStream(runtime, runId, principal, request);
  },
);

const cancelRun = defineRoute(
  {
    operationId: 'cancelRun',
    method: 'post',
    path: '/api/v1/runs/{id}/cancel',
    role: 'operator',
    summary: 'Cancels a queued or running run, or one waiting at an approval gate, as the key that started it or an admin key: the run ends `cancelled` and its model and retriever calls in flight are aborted. A run that has ended answers 409.',
    body: undefined,
    responses: { 200: { description: 'The run, cancelled.', schema: schemas.runResult } },
  },
  ({ runtime, principal, params }) => runtime.cancel(runIdOf(params), principal),
);

const explain = defineRoute(
  {
    operationId: 'explain',
    method: 'post',
    path: '/api/v1/explain',
    role: 'operator',
    summary: 'EXPLAIN: the plan the runtime would run for the goal, with estimates and the candidates it rejected (`analyze` runs it).',
    body: schemas.explainRequest,
    responses: { 200: { description: 'The plan.', schema: schemas.explainResult } },
  },
  ({ runtime, principal, input: { analyze, ...goal } }) => runtime.explain({ ...goal, principal }, { analyze: analyze ?? false }),
);

const simulate = defineRoute(
  {
    operationId: 'simulate',
    method: 'post',
    path: '/api/v1/simulate',
    role: 'operator',
    summary: 'Expected cost, latency, tokens and confidence of the plan, as intervals, without running it.',
    body: schemas.goalRequest,
    responses: { 200: { description: 'The expectations.', schema: schemas.simulateResult } },
  },
  ({ runtime, principal, input }) => runtime.simulate({ ...input, principal }),
);

const buildContext = defineRoute(
  {
    operationId: 'buildContext',
    method: 'post',
    path: '/api/v1/build-context',
    role: 'operator',
    summary: "Ranked, cited passages for a goal within a token budget, for a caller that brings its own model: the plan's retrieval and assembly, no model call, no run stored.",
    body: schemas.buildContextRequest,
    responses: { 200: { description: 'The passages.', schema: schemas.builtContext } },
  },
  ({ runtime, principal, input: { tokenBudget, ...goal } }) => runtime.contextFor({ ...goal, principal }, tokenBudget === undefined ? {} : { tokenBudget }),
);

export const V1_ROUTES: readonly V1Route[] = Object.freeze([runs, getRun, runEvents, cancelRun, explain, simulate, buildContext]);

export const v1Routes = Object.freeze({ runs, getRun, runEvents, cancelRun, explain, simulate, buildContext });
