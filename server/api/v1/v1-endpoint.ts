/**
 * One HTTP API v1 request, start to end: who is calling (a bearer API key or the CLI's service
 * token — never a session cookie, so a page another site opens cannot drive the API as the
 * visitor), whether their role suffices, the body read under `limits.api.max_body_bytes` and
 * parsed by the endpoint's zod schema, then the endpoint's one runtime call. Every failure becomes
 * a `{ error }` response in v1-errors.ts.
 */
import type { z } from 'zod';
import { rankOf, ROLES, type Role } from '../../auth/roles';
import type { Principal } from '../../runtime/types';
import type { RuntimePort } from '../runtime-port';
import { capRequestBody } from '../trpc-request-limits';
import { errorResponse, toErrorResponse } from './v1-errors';

export interface V1Context {
  /** Lazily opens (or reuses) the process-wide runtime. */
  readonly runtime: () => Promise<RuntimePort>;
  /** The principal a request's `Authorization: Bearer …` resolves to; undefined = none or not valid. */
  readonly principal: (headers: Headers) => Promise<Principal | undefined>;
}

export interface EndpointCall<Input> {
  readonly runtime: RuntimePort;
  readonly principal: Principal;
  readonly input: Input;
  readonly request: Request;
}

export interface EndpointSpec<Schema extends z.ZodType | undefined> {
  /** "POST /api/v1/runs": for the server log. */
  readonly route: string;
  readonly role: Role;
  /** The JSON body's schema; undefined for a request without a body. */
  readonly body: Schema;
}

export type InputOf<Schema> = Schema extends z.ZodType ? z.output<Schema> : undefined;

const unauthorized = () => errorResponse(401, 'UNAUTHORIZED', 'an API key is required: send Authorization: Bearer <key> (an admin creates keys under Admin → API keys)', null, { 'www-authenticate': 'Bearer' });

async function bodyOf(request: Request, runtime: RuntimePort): Promise<unknown> {
  const capped = await capRequestBody(request, runtime.config.limits.api.max_body_bytes);
  if (capped instanceof Response) throw capped;
  const text = await capped.text();
  if (text.trim() === '') return {};
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw errorResponse(400, 'INVALID_INPUT', 'body: expected a JSON object', 'body');
  }
}

export async function handleEndpoint<Schema extends z.ZodType | undefined>(
  request: Request,
  context: V1Context,
  spec: EndpointSpec<Schema>,
  call: (args: EndpointCall<InputOf<Schema>>) => Promise<unknown>,
): Promise<Response> {
  try {
    const principal = await context.principal(request.headers);
    if (!principal) return unauthorized();
    if (rankOf(principal.roles) < ROLES.indexOf(spec.role)) return errorResponse(403, 'FORBIDDEN', `requires the ${spec.role} role`);
    const runtime = await context.runtime();
    const input = (spec.body ? spec.body.parse(await bodyOf(request, runtime)) : undefined) as InputOf<Schema>;
    const result = await call({ runtime, principal, input, request });
    return result instanceof Response ? result : Response.json(result);
  } catch (error) {
    return error instanceof Response ? error : toErrorResponse(error, spec.route);
  }
}
