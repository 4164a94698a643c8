/**
 * The adapter over a Context Runtime server's HTTP API v1, acting as one API key (its role and its
 * sources). A small typed fetch client: requests and responses are checked against the same zod
 * schemas the routes parse with and the OpenAPI document is generated from (api/v1/v1-schemas.ts),
 * and an error body `{ error: { code, message, field } }` comes back as the ContextRuntimeError the
 * server raised, so a caller handles both ports alike.
 */
import type { z } from 'zod';
import * as schemas from '../../api/v1/v1-schemas';
import { ContextRuntimeError, isRuntimeErrorCode } from '../../runtime/errors';
import type { ContextRuntimePort } from './context-runtime-port';

export interface HttpRuntimeOptions {
  /** The server's origin, e.g. http://127.0.0.1:3000. */
  readonly baseUrl: string;
  /** An API key (`context-runtime api-key create`): its role and sources are the adapter's. */
  readonly apiKey: string;
  /** Another fetch (a proxy agent, a test's); default: the global one. */
  readonly fetch?: typeof fetch;
}

async function failureOf(response: Response, route: string): Promise<Error> {
  const text = await response.text();
  let parsed: z.infer<typeof schemas.errorResponse> | undefined;
  try {
    parsed = schemas.errorResponse.parse(JSON.parse(text));
  } catch {
    parsed = undefined;
  }
  if (parsed && isRuntimeErrorCode(parsed.error.code)) {
    return new ContextRuntimeError(parsed.error.code, parsed.error.message, { ...(parsed.error.field ? { field: parsed.error.field } : {}), details: { status: response.status } });
  }
  return new ContextRuntimeError('INTERNAL', `${route} answered HTTP ${response.status}${parsed ? `: ${parsed.error.message}` : ''}`, { details: { status: response.status } });
}

export function httpRuntimePort(options: HttpRuntimeOptions): ContextRuntimePort {
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const send = options.fetch ?? fetch;

  async function post<Schema extends z.ZodType>(path: string, body: unknown, schema: Schema): Promise<z.infer<Schema>> {
    const route = `POST ${path}`;
    const response = await send(`${baseUrl}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${options.apiKey}`, 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify(body),
    });
    if (!response.ok) throw await failureOf(response, route);
    const parsed = schema.safeParse(await response.json());
    if (!parsed.success) throw new ContextRuntimeError('INTERNAL', `${route}: the server answered in an unexpected shape (${parsed.error.issues[0]?.path.join('.') || 'body'}: ${parsed.error.issues[0]?.message})`);
    return parsed.data;
  }

  return {
    via: baseUrl,
    async plan(request) {
      const { planHash, selectedSources, rejectedSources } = await post('/api/v1/explain', request, schemas.explainResult);
      return { planHash, selectedSources, rejectedSources };
    },
    buildContext: async (request) => post('/api/v1/build-context', request, schemas.builtContext),
    async run(request) {
      const result = await post('/api/v1/runs', { ...request, wait: true }, schemas.runResult);
      return {
        runId: result.runId,
        status: result.status,
        ...(result.answer === undefined ? {} : { answer: result.answer }),
        citations: result.citations,
        caveats: result.caveats,
        planHash: result.explain.planHash,
        rejectedSources: result.explain.rejectedSources,
        ...(result.pendingApproval ? { pendingApproval: result.pendingApproval } : {}),
        ...(result.error ? { error: result.error } : {}),
      };
    },
  };
}
