/**
 * Typed runtime errors. Thrown deep, mapped once (tRPC middleware, CLI printer).
 * Every error carries a stable `code` and structured `details`; `field` names the
 * offending input where the error is the caller's fault.
 */
export type RuntimeErrorCode =
  | 'INVALID_INPUT'
  | 'INVALID_CONFIG'
  | 'UNKNOWN_SOURCE'
  | 'NO_FEASIBLE_PLAN'
  | 'INVALID_GRAPH'
  | 'NOT_FOUND'
  | 'CONFLICT'
  | 'DATA_DIR_LOCKED'
  | 'MODEL_UNAVAILABLE'
  | 'NODE_FAILED'
  | 'TIMEOUT'
  | 'INTERNAL';

export class ContextRuntimeError extends Error {
  readonly code: RuntimeErrorCode;
  readonly field?: string;
  readonly details: Record<string, unknown>;
  constructor(code: RuntimeErrorCode, message: string, options: { field?: string; details?: Record<string, unknown>; cause?: unknown } = {}) {
    super(message, { cause: options.cause });
    this.name = 'ContextRuntimeError';
    this.code = code;
    this.field = options.field;
    this.details = options.details ?? {};
  }
  /** True when the caller caused it (a 4xx), false for the runtime's own failures. */
  get isUserError(): boolean {
    return ['INVALID_INPUT', 'INVALID_CONFIG', 'UNKNOWN_SOURCE', 'NO_FEASIBLE_PLAN', 'INVALID_GRAPH', 'NOT_FOUND', 'CONFLICT', 'DATA_DIR_LOCKED'].includes(this.code);
  }
  toJSON() {
    return { code: this.code, message: this.message, field: this.field, details: this.details };
  }
}

export const invalidInput = (field: string, message: string, details: Record<string, unknown> = {}) =>
  new ContextRuntimeError('INVALID_INPUT', `${field}: ${message}`, { field, details });

export const isContextRuntimeError = (error: unknown): error is ContextRuntimeError =>
  error instanceof ContextRuntimeError ||
  (typeof error === 'object' && error !== null && (error as { name?: string }).name === 'ContextRuntimeError');
