/**
 * A typed client for the HTTP API v1 (`import { ContextRuntimeClient } from 'context-runtime/client'`):
 * one method per route of server/api/v1/v1-routes.ts, an API key as the bearer, answers checked
 * against the same zod schemas the OpenAPI document is generated from, failures thrown as
 * ContextRuntimeApiError with the API's code and the field at fault. It imports no server code
 * that runs: only the schemas (zod) and, for types, the runtime's published shapes.
 */
import type { z } from 'zod';
import * as schemas from '../api/v1/v1-schemas';
import { apiErrorOf, ContextRuntimeApiError } from './api-error';
import type { BuildContextRequest, ExplainRequest, ExplainResult, GoalContext, GoalRequest, RunAccepted, RunResult, RunStreamEvent, SimulateResult } from './client-types';
import { readEventStream } from './event-stream-reader';

export interface ContextRuntimeClientOptions {
  /** The server's origin, e.g. `http://localhost:3000`. */
  readonly baseUrl: string;
  /** An API key (Admin → API keys, or `context-runtime api-keys create`); its role and sources bound every call. */
  readonly apiKey: string;
  /** The fetch to send with (default: the global one), e.g. one with a proxy agent or a timeout. */
  readonly fetch?: typeof fetch;
}

export class ContextRuntimeClient {
  private readonly baseUrl: string;
  private readonly apiKey: string;
  private readonly send: typeof fetch;

  constructor(options: ContextRuntimeClientOptions) {
    // `localhost:3000` parses as a URL whose scheme is `localhost:`: only http(s) is a server.
    if (!options?.baseUrl || !/^https?:$/.test(protocolOf(options.baseUrl))) throw new TypeError(`baseUrl: expected an http(s) URL such as http://localhost:3000, got ${JSON.stringify(options?.baseUrl)}`);
    if (!options.apiKey) throw new TypeError('apiKey: required (an admin creates keys under Admin → API keys)');
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.apiKey = options.apiKey;
    this.send = options.fetch ?? globalThis.fetch;
  }

  /** Plans and runs the goal, answering once the run has ended (or stopped at an approval gate). */
  async run(request: GoalRequest): Promise<RunResult> {
    return (await this.call('POST', '/api/v1/runs', schemas.runResult, { ...request, wait: true })) as unknown as RunResult;
  }

  /** Starts the run and answers at once with its id; follow it with `events(runId)` or `getRun(runId)`. */
  submit(request: GoalRequest): Promise<RunAccepted> {
    return this.call('POST', '/api/v1/runs', schemas.runAccepted, { ...request, wait: false });
  }

  /** A run the key may read (another's run over sources it may not read is NOT_FOUND). */
  async getRun(runId: string): Promise<RunResult> {
    return (await this.call('GET', `/api/v1/runs/${encodeURIComponent(runId)}`, schemas.runResult)) as unknown as RunResult;
  }

  /** The plan the runtime would run, with estimates and the candidates it rejected; `analyze: true` runs it. */
  async explain(request: ExplainRequest): Promise<ExplainResult> {
    return (await this.call('POST', '/api/v1/explain', schemas.explainResult, request)) as unknown as ExplainResult;
  }

  /** Expected cost, latency, tokens and confidence of the plan, without running it. */
  async simulate(request: GoalRequest): Promise<SimulateResult> {
    return (await this.call('POST', '/api/v1/simulate', schemas.simulateResult, request)) as unknown as SimulateResult;
  }

  /** Ranked, cited passages within a token budget, for a caller that brings its own model. */
  async buildContext(request: BuildContextRequest): Promise<GoalContext> {
    return (await this.call('POST', '/api/v1/build-context', schemas.builtContext, request)) as unknown as GoalContext;
  }

  /**
   * A run's progress, then its result (or an error), as the server sends them; the stream ends
   * after the result. `lastEventId` resumes after an event already seen.
   */
  async *events(runId: string, options: { readonly lastEventId?: string; readonly signal?: AbortSignal } = {}): AsyncGenerator<RunStreamEvent> {
    const route = `GET /api/v1/runs/${runId}/events`;
    const response = await this.request('GET', `/api/v1/runs/${encodeURIComponent(runId)}/events`, undefined, { accept: 'text/event-stream', ...(options.lastEventId ? { 'last-event-id': options.lastEventId } : {}) }, options.signal);
    if (!response.ok) throw await apiErrorOf(response, route);
    if (!response.body) throw new ContextRuntimeApiError(0, 'UNEXPECTED_RESPONSE', `${route} answered without a body`);
    for await (const message of readEventStream(response.body)) {
      const parsed = schemas.runEvent.safeParse(parseJson(message.data));
      if (!parsed.success) throw new ContextRuntimeApiError(0, 'UNEXPECTED_RESPONSE', `${route} sent an event that is not a run event: ${message.data.slice(0, 200)}`);
      yield { ...(parsed.data as object), ...(message.id === undefined ? {} : { id: message.id }) } as RunStreamEvent;
    }
  }

  /** The OpenAPI 3.1 document of the API, generated from the same schemas. */
  async openApi(): Promise<Record<string, unknown>> {
    const response = await this.request('GET', '/api/v1/openapi.json');
    if (!response.ok) throw await apiErrorOf(response, 'GET /api/v1/openapi.json');
    return (await response.json()) as Record<string, unknown>;
  }

  private async call<Schema extends z.ZodType>(method: 'GET' | 'POST', path: string, schema: Schema, body?: object): Promise<z.output<Schema>> {
    const route = `${method} ${path}`;
    const response = await this.request(method, path, body);
    if (!response.ok) throw await apiErrorOf(response, route);
    const parsed = schema.safeParse(await response.json().catch(() => undefined));
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new ContextRuntimeApiError(0, 'UNEXPECTED_RESPONSE', `${route} answered a body this client cannot read (${issue?.path.join('.') || 'body'}: ${issue?.message ?? 'invalid'}): is the server a Context Runtime of the same API version?`);
    }
    return parsed.data;
  }

  private request(method: string, path: string, body?: object, headers: Record<string, string> = {}, signal?: AbortSignal): Promise<Response> {
    return this.send(`${this.baseUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${this.apiKey}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      ...(signal ? { signal } : {}),
    });
  }
}

/** '' for a string that is no URL (URL.parse is not in every Node 20). */
function protocolOf(url: string): string {
  try {
    return new URL(url).protocol;
  } catch {
    return '';
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
