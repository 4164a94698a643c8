import { describe, expect, it } from 'vitest';
import { ContextRuntimeError, isContextRuntimeError, isUserErrorCode, RUNTIME_ERROR_KINDS, RUNTIME_ERROR_MARK, type RuntimeErrorCode } from './errors';

const MARK = Symbol.for('context-runtime.error');

/** The class as a second bundle (another Next.js route, the CLI) would have it: same marker, other identity. */
class ContextRuntimeErrorFromAnotherCopy extends Error {
  readonly code: RuntimeErrorCode = 'NOT_FOUND';
  readonly details = {};
  constructor(message: string) {
    super(message);
    Object.defineProperty(this, MARK, { value: true });
  }
}

describe('recognising runtime errors by their marker', () => {
  it('recognises this copy of the class', () => {
    expect(isContextRuntimeError(new ContextRuntimeError('INVALID_INPUT', 'goal: expected text'))).toBe(true);
  });

  it('recognises an error from another copy of the class, though instanceof does not', () => {
    const foreign = new ContextRuntimeErrorFromAnotherCopy('run r-1 does not exist');
    expect(foreign instanceof ContextRuntimeError).toBe(false);
    expect(isContextRuntimeError(foreign)).toBe(true);
    expect(isContextRuntimeError({ [MARK]: true, code: 'CONFLICT', message: 'already decided', details: {} })).toBe(true);
  });

  it('does not take an error that only claims the name', () => {
    const impostor = Object.assign(new Error('looks like one'), { name: 'ContextRuntimeError', code: 'NOT_FOUND' });
    expect(isContextRuntimeError(impostor)).toBe(false);
    expect(isContextRuntimeError({ name: 'ContextRuntimeError', code: 'INVALID_INPUT', message: 'x' })).toBe(false);
  });

  it('does not take a marked value without a known code, nor non-objects', () => {
    expect(isContextRuntimeError({ [MARK]: true, code: 'TEAPOT' })).toBe(false);
    expect(isContextRuntimeError({ [MARK]: true, code: 'toString' })).toBe(false);
    for (const value of [null, undefined, 'ContextRuntimeError', 42]) expect(isContextRuntimeError(value)).toBe(false);
  });

  it('keeps the marker out of logs, spreads and JSON', () => {
    const error = new ContextRuntimeError('NOT_FOUND', 'run r-1 does not exist', { field: 'runId' });
    expect(RUNTIME_ERROR_MARK).toBe(MARK);
    expect(Object.getOwnPropertySymbols({ ...error })).toEqual([]);
    expect(JSON.parse(JSON.stringify(error))).toEqual({ code: 'NOT_FOUND', message: 'run r-1 does not exist', field: 'runId', details: {} });
  });
});

describe('the one list of user errors', () => {
  it('calls every code a user error except the runtime’s own failures', () => {
    const user = (Object.keys(RUNTIME_ERROR_KINDS) as RuntimeErrorCode[]).filter(isUserErrorCode);
    expect(user.sort()).toEqual(['BUDGET_EXCEEDED', 'CANCELLED', 'CONFLICT', 'FORBIDDEN', 'INVALID_CONFIG', 'INVALID_GRAPH', 'INVALID_INPUT', 'NOT_FOUND', 'NO_FEASIBLE_PLAN', 'RATE_LIMITED', 'UNKNOWN_SOURCE']);
  });

  it('agrees with the error’s own isUserError', () => {
    for (const code of Object.keys(RUNTIME_ERROR_KINDS) as RuntimeErrorCode[]) {
      expect(new ContextRuntimeError(code, 'x').isUserError, code).toBe(isUserErrorCode(code));
    }
  });

  it('treats a locked data directory as the runtime’s failure, not the caller’s', () => {
    expect(new ContextRuntimeError('DATA_DIR_LOCKED', '/srv/data is in use by process 4242').isUserError).toBe(false);
  });
});
