/**
 * Typed runtime errors. Thrown deep, mapped once (tRPC middleware, CLI printer).
 * Every error carries a stable `code` and structured `details`; `field` names the
 * offending input where the error is the caller's fault.
 */

/**
 * Who is at fault for each code, and so how a caller hears of it. The one list: the API maps a
 * kind to its HTTP/tRPC status (server/api/init.ts) and the CLI its exit code; neither lists codes.
 * - invalid: the request (or the config the caller supplied) is wrong; fix it and retry.
 * - not_found / conflict: the thing named does not exist / is not in a state that allows this.
 * - forbidden: the caller is signed in but may not do this: their role (server-path ingest, a gate
 *   needing another role) or their own run's gate (a 403, never a 500).
 * - unsatisfiable: the request is well formed but no plan meets its constraints (relax them), or a
 *   running plan would cross one of them (BUDGET_EXCEEDED: a model call refused before it started,
 *   or the run's deadline passed; `field` names the constraint).
 * - rate_limited: the caller asked too often or has too much running or spent; `details.retryAfterSeconds` says when to retry.
 * - internal: the runtime's own failure (a model down, a node failing, a timeout, a locked data
 *   directory): the caller did nothing wrong, and the message may carry server internals.
 */
export const RUNTIME_ERROR_KINDS = Object.freeze({
  INVALID_INPUT: 'invalid',
  INVALID_CONFIG: 'invalid',
  UNKNOWN_SOURCE: 'invalid',
  INVALID_GRAPH: 'invalid',
  NOT_FOUND: 'not_found',
  CONFLICT: 'conflict',
  FORBIDDEN: 'forbidden',
  NO_FEASIBLE_PLAN: 'unsatisfiable',
  BUDGET_EXCEEDED: 'unsatisfiable',
  RATE_LIMITED: 'rate_limited',
  // The caller stopped the work (Ctrl-C, a closed connection): a 4xx nobody is alerted for.
  CANCELLED: 'conflict',
  // Another process holds the data directory: nothing in the request caused it, and its message
  // names a server path and pid (see the commit that made this list the only one).
  DATA_DIR_LOCKED: 'internal',
  MODEL_UNAVAILABLE: 'internal',
  NODE_FAILED: 'internal',
  TIMEOUT: 'internal',
  INTERNAL: 'internal',
} as const);

export type RuntimeErrorCode = keyof typeof RUNTIME_ERROR_KINDS;
export type RuntimeErrorKind = (typeof RUNTIME_ERROR_KINDS)[RuntimeErrorCode];
/** The kinds a caller caused (a 4xx over HTTP, exit code 2 in the CLI). */
export type UserErrorKind = Exclude<RuntimeErrorKind, 'internal'>;

export const isRuntimeErrorCode = (code: unknown): code is RuntimeErrorCode => typeof code === 'string' && Object.hasOwn(RUNTIME_ERROR_KINDS, code);

/** True when the caller caused an error with this code, false for the runtime's own failures. */
export const isUserErrorCode = (code: RuntimeErrorCode): boolean => RUNTIME_ERROR_KINDS[code] !== 'internal';

/**
 * The marker every runtime error carries. A registered symbol is the same in every copy of this
 * module (Next.js bundles the runtime once per route, the CLI imports it again), so an error from
 * another copy of the class is still recognised, while `instanceof` is not and `name` is a string
 * anything can claim.
 */
export const RUNTIME_ERROR_MARK: unique symbol = Symbol.for('context-runtime.error');

export class ContextRuntimeError extends Error {
  declare readonly [RUNTIME_ERROR_MARK]: true;
  readonly code: RuntimeErrorCode;
  readonly field?: string;
  readonly details: Record<string, unknown>;
  constructor(code: RuntimeErrorCode, message: string, options: { field?: string; details?: Record<string, unknown>; cause?: unknown } = {}) {
    super(message, { cause: options.cause });
    // Not enumerable: logs and spreads of the error stay as they were.
    Object.defineProperty(this, RUNTIME_ERROR_MARK, { value: true });
    this.name = 'ContextRuntimeError';
    this.code = code;
    this.field = options.field;
    this.details = options.details ?? {};
  }
  /** True when the caller caused it (a 4xx), false for the runtime's own failures. */
  get isUserError(): boolean {
    return isUserErrorCode(this.code);
  }
  toJSON() {
    return { code: this.code, message: this.message, field: this.field, details: this.details };
  }
}

export const invalidInput = (field: string, message: string, details: Record<string, unknown> = {}) =>
  new ContextRuntimeError('INVALID_INPUT', `${field}: ${message}`, { field, details });

/** Recognised by the marker and a known code, never by class identity or `name`. */
export const isContextRuntimeError = (error: unknown): error is ContextRuntimeError =>
  typeof error === 'object' && error !== null && (error as { [RUNTIME_ERROR_MARK]?: unknown })[RUNTIME_ERROR_MARK] === true && isRuntimeErrorCode((error as { code?: unknown }).code);
