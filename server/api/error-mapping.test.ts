import { TRPCError } from '@trpc/server';
import { getHTTPStatusCodeFromError } from '@trpc/server/http';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ContextRuntimeError, isUserErrorCode, RUNTIME_ERROR_KINDS, type RuntimeErrorCode } from '../runtime/errors';
import { INTERNAL_ERROR_MESSAGE, toClientError, userFacingRuntimeError } from './init';

const ALL_CODES = Object.keys(RUNTIME_ERROR_KINDS) as RuntimeErrorCode[];
/** The server's own config is the operator's mistake, not the HTTP caller's: hidden like an internal failure. */
const USER_CODES = ALL_CODES.filter((code) => isUserErrorCode(code) && code !== 'INVALID_CONFIG');
const INTERNAL_CODES = ALL_CODES.filter((code) => !USER_CODES.includes(code));

const quietLog = () => vi.spyOn(console, 'error').mockImplementation(() => undefined);
afterEach(() => vi.restoreAllMocks());

describe('runtime errors as the API reports them', () => {
  it.each(USER_CODES)('%s is a 4xx with the runtime’s message kept', (code) => {
    const mapped = toClientError(new ContextRuntimeError(code, `${code}: what went wrong`, { field: 'goal' }), 'test');
    const status = getHTTPStatusCodeFromError(mapped);
    expect(status).toBeGreaterThanOrEqual(400);
    expect(status).toBeLessThan(500);
    expect(mapped.message).toBe(`${code}: what went wrong`);
    expect(userFacingRuntimeError(mapped)?.code).toBe(code);
  });

  it.each(INTERNAL_CODES)('%s is a 500 with the message hidden and logged', (code) => {
    const log = quietLog();
    const mapped = toClientError(new ContextRuntimeError(code, 'secret: /srv/data pid 4242'), 'test');
    expect(getHTTPStatusCodeFromError(mapped)).toBe(500);
    expect(mapped.message).toBe(INTERNAL_ERROR_MESSAGE);
    expect(userFacingRuntimeError(mapped)).toBeUndefined();
    expect(log).toHaveBeenCalled();
  });

  it('keeps a locked data directory (path, pid) from the client', () => {
    quietLog();
    const mapped = toClientError(new ContextRuntimeError('DATA_DIR_LOCKED', '/srv/data is in use by process 4242'), 'test');
    expect(mapped).toMatchObject({ code: 'INTERNAL_SERVER_ERROR', message: INTERNAL_ERROR_MESSAGE });
  });

  it('maps an error from another copy of the class by its marker, and not one that only has the name', () => {
    quietLog();
    const marked = Object.assign(new Error('run r-9 does not exist'), { [Symbol.for('context-runtime.error')]: true, code: 'NOT_FOUND', details: {} });
    expect(toClientError(marked, 'test')).toMatchObject({ code: 'NOT_FOUND', message: 'run r-9 does not exist' });
    const named = Object.assign(new Error('run r-9 does not exist'), { name: 'ContextRuntimeError', code: 'NOT_FOUND', details: {} });
    expect(toClientError(named, 'test')).toMatchObject({ code: 'INTERNAL_SERVER_ERROR', message: INTERNAL_ERROR_MESSAGE });
  });

  it('hides an unknown failure and passes tRPC’s own client errors through', () => {
    quietLog();
    expect(toClientError(new Error('db password wrong'), 'test').message).toBe(INTERNAL_ERROR_MESSAGE);
    const parse = new TRPCError({ code: 'PARSE_ERROR', message: 'bad JSON' });
    expect(toClientError(parse, 'test')).toBe(parse);
  });
});
