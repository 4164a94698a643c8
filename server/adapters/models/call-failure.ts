import { isContextRuntimeError } from '../../runtime/errors';

/** Whether a failed call may have been billed: one that timed out or was aborted may; one the provider refused was not. */
export function callFailure(error: unknown, signal: AbortSignal | undefined): 'rejected' | 'abandoned' {
  return signal?.aborted || (isContextRuntimeError(error) && error.code === 'TIMEOUT') ? 'abandoned' : 'rejected';
}
