import { describe, expect, it, vi } from 'vitest';
import type { RunStorePlugin } from '../contracts/run-store';
import { ContextRuntimeError } from '../errors';
import { recordRunFailure } from './run-failure-record';

/** A run store whose setStatus answers with each of `answers` in turn (an Error rejects). */
function storeAnswering(answers: readonly (boolean | Error)[]) {
  const setStatus = vi.fn(async () => {
    const answer = answers[Math.min(setStatus.mock.calls.length - 1, answers.length - 1)];
    if (answer instanceof Error) throw answer;
    return answer;
  });
  return { store: { setStatus } as unknown as RunStorePlugin, setStatus };
}

describe('recordRunFailure', () => {
  it('writes the failure conditional on running and this owner', async () => {
    const { store, setStatus } = storeAnswering([true]);
    const outcome = await recordRunFailure(store, 'run-1', 'the run stopped: boom', { owner: 'me' });
    expect(outcome.written).toBe(true);
    expect(setStatus).toHaveBeenCalledWith('run-1', 'failed', { error: 'the run stopped: boom', pendingNodeId: null, onlyIf: ['running'], onlyOwner: 'me' });
  });

  it('retries a failed write until the database answers', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const { store, setStatus } = storeAnswering([new Error('connection refused'), new Error('connection refused'), true]);
    const outcome = await recordRunFailure(store, 'run-2', 'the run stopped', { firstDelayMs: 1 });
    expect(outcome.written).toBe(false);
    await outcome.settled;
    expect(setStatus).toHaveBeenCalledTimes(3);
  });

  it('stops when the run has no record (its insert never reached the database)', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const missing = new ContextRuntimeError('NOT_FOUND', 'no run run-3', { field: 'runId' });
    const now = storeAnswering([missing]);
    expect((await recordRunFailure(now.store, 'run-3', 'the run stopped')).written).toBe(true);
    const later = storeAnswering([new Error('connection refused'), missing, true]);
    const outcome = await recordRunFailure(later.store, 'run-3', 'the run stopped', { firstDelayMs: 1 });
    await outcome.settled;
    expect(later.setStatus).toHaveBeenCalledTimes(2);
  });
});
