/**
 * How the HTTP API v1 client reports a failed request: the server's own `{ error: { code, message,
 * field } }` (v1-errors.ts) with the HTTP status, so a caller branches on `code` and shows
 * `message`, which names the field at fault, as the API worded it.
 */
import { errorResponse } from '../api/v1/v1-schemas';

export class ContextRuntimeApiError extends Error {
  override readonly name = 'ContextRuntimeApiError';

  constructor(
    /** The HTTP status; 0 when the server answered 2xx with a body that is not what the route promises. */
    readonly status: number,
    /** INVALID_INPUT, UNAUTHORIZED, FORBIDDEN, NOT_FOUND, RATE_LIMITED, …; UNEXPECTED_RESPONSE for a body the client cannot read. */
    readonly code: string,
    message: string,
    /** The request field at fault, when there is one. */
    readonly field: string | null = null,
    /** From Retry-After, on 429. */
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
  }
}

/** The error a non-2xx response states; a body that is not the API's error shape (a proxy's page) is named by status and route. */
export async function apiErrorOf(response: Response, route: string): Promise<ContextRuntimeApiError> {
  const text = await response.text().catch(() => '');
  const retryAfter = Number(response.headers.get('retry-after') ?? NaN);
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  const parsed = errorResponse.safeParse(body);
  if (parsed.success) {
    const { code, message, field } = parsed.data.error;
    return new ContextRuntimeApiError(response.status, code, message, field, Number.isFinite(retryAfter) ? retryAfter : undefined);
  }
  return new ContextRuntimeApiError(response.status, response.status === 404 ? 'NOT_FOUND' : 'HTTP_ERROR', `${route} answered HTTP ${response.status} without an API error body: is the base URL a Context Runtime server?`);
}
