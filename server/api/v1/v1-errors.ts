/**
 * How the HTTP API v1 reports a failure: one mapping, from the runtime's error kinds (the same list
 * tRPC maps from, runtime/errors.ts) to an HTTP status and `{ error: { code, message, field } }`.
 * A caller's mistake is a 4xx naming the field; the runtime's own failure is a 500 whose details
 * stay in the server log.
 */
import { ZodError } from 'zod';
import { invalidInput, isContextRuntimeError, RUNTIME_ERROR_KINDS, type UserErrorKind } from '../../runtime/errors';
import { INTERNAL_ERROR_MESSAGE, trpcCodeOf } from '../init';

const STATUS_OF_KIND: Readonly<Record<UserErrorKind, number>> = Object.freeze({
  invalid: 400,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  unsatisfiable: 422,
  rate_limited: 429,
});

export function errorResponse(status: number, code: string, message: string, field: string | null = null, headers: HeadersInit = {}): Response {
  return Response.json({ error: { code, message, field } }, { status, headers });
}

/** A zod failure restated as the runtime states bad input: "field: message". */
export function fromZodError(error: ZodError) {
  const issue = error.issues[0];
  const unknownKey = issue?.code === 'unrecognized_keys' ? issue.keys[0] : undefined;
  const path = issue ? [...issue.path.map(String), ...(unknownKey ? [unknownKey] : [])] : [];
  const field = path.length > 0 ? path.join('.') : 'body';
  return invalidInput(field, unknownKey ? 'unknown field' : (issue?.message ?? 'invalid'));
}

export function toErrorResponse(error: unknown, route: string): Response {
  const mapped = error instanceof ZodError ? fromZodError(error) : error;
  // trpcCodeOf decides which codes a client may see (INVALID_CONFIG is the operator's, not the caller's).
  if (isContextRuntimeError(mapped) && trpcCodeOf(mapped.code) !== undefined) {
    const kind = RUNTIME_ERROR_KINDS[mapped.code] as UserErrorKind;
    const retryAfter = mapped.code === 'RATE_LIMITED' ? Number(mapped.details.retryAfterSeconds) : NaN;
    return errorResponse(STATUS_OF_KIND[kind], mapped.code, mapped.message, mapped.field ?? null, Number.isFinite(retryAfter) ? { 'retry-after': String(retryAfter) } : {});
  }
  console.error(`[api/v1] ${route} failed:`, error);
  return errorResponse(500, 'INTERNAL', INTERNAL_ERROR_MESSAGE);
}
