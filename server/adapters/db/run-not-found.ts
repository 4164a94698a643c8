import { ContextRuntimeError } from '../../runtime/errors';

/** A run id no row has: the NOT_FOUND the run store and the approval log both raise. */
export const runNotFound = (runId: string) => new ContextRuntimeError('NOT_FOUND', `no run ${runId}`, { field: 'runId', details: { runId } });
