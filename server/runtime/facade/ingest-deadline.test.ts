import { describe, expect, it } from 'vitest';
import { underIngestDeadline } from './ingest-deadline';

/** Work that runs until its signal fires, then fails the way a cut read or git command does. */
const untilStopped = (signal: AbortSignal) =>
  new Promise<never>((_, reject) => signal.addEventListener('abort', () => reject(new DOMException('This operation was aborted', 'AbortError')), { once: true }));

describe('underIngestDeadline', () => {
  it('stops the work at ingest.timeout_ms and says so, not with the AbortError of whatever it cut', async () => {
    const started = performance.now();
    const error = await underIngestDeadline({ timeoutMs: 50 }, untilStopped).catch((caught: unknown) => caught);
    expect(performance.now() - started).toBeGreaterThanOrEqual(45);
    expect(error).toMatchObject({ code: 'TIMEOUT', details: { timeoutMs: 50 } });
    expect((error as Error).message).toMatch(/ingest\.timeout_ms \(50 ms\).*half-written/);
  });

  it('passes the caller’s cancel on as CANCELLED, a caller-side error', async () => {
    const caller = new AbortController();
    const stopped = underIngestDeadline({ signal: caller.signal, timeoutMs: 60_000 }, untilStopped);
    caller.abort();
    await expect(stopped).rejects.toMatchObject({ code: 'CANCELLED', isUserError: true });
  });

  it('never starts work for a caller that is already gone', async () => {
    let started = false;
    const error = await underIngestDeadline({ signal: AbortSignal.abort(), timeoutMs: null }, async () => (started = true)).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: 'CANCELLED' });
    expect(started).toBe(false);
  });

  it('returns the result, and the work’s own failure unchanged, when nothing stopped it', async () => {
    await expect(underIngestDeadline({ timeoutMs: null }, async (signal) => (signal.aborted ? 'stopped' : 'done'))).resolves.toBe('done');
    await expect(underIngestDeadline({ timeoutMs: 60_000 }, () => Promise.reject(new Error('disk full')))).rejects.toThrow('disk full');
  });
});
