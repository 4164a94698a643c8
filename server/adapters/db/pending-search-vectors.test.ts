import { describe, expect, it } from 'vitest';
import { PendingSearchVectors } from './pending-search-vectors';

/** A backfill that finishes when told to, counting how often it ran. */
function controlledFill() {
  const finishers: (() => void)[] = [];
  return {
    runs: () => finishers.length,
    finish: (index: number) => finishers[index](),
    fill: () => new Promise<void>((resolve) => finishers.push(resolve)),
  };
}

describe('PendingSearchVectors', () => {
  it('fills once at first use, then not again until an ingest marks vectors pending', async () => {
    let runs = 0;
    const pending = new PendingSearchVectors(async () => {
      runs += 1;
    });
    await pending.fillIfPending();
    await pending.fillIfPending();
    expect(runs).toBe(1);
    pending.markPending();
    expect(pending.settled).toBe(false);
    await pending.fillIfPending();
    await pending.fillIfPending();
    expect(runs).toBe(2);
  });

  it('searches at once share one backfill', async () => {
    const fill = controlledFill();
    const pending = new PendingSearchVectors(fill.fill);
    const searches = [pending.fillIfPending(), pending.fillIfPending(), pending.fillIfPending()];
    await Promise.resolve();
    expect(fill.runs()).toBe(1);
    fill.finish(0);
    await Promise.all(searches);
    expect(pending.settled).toBe(true);
  });

  it('an ingest that starts during a backfill is filled by another one', async () => {
    const fill = controlledFill();
    const pending = new PendingSearchVectors(fill.fill);
    const search = pending.fillIfPending();
    await Promise.resolve();
    pending.markPending();
    fill.finish(0);
    // The first backfill may have passed the new rows by: the search waits for a second.
    await new Promise((resolve) => setImmediate(resolve));
    expect(fill.runs()).toBe(2);
    expect(pending.settled).toBe(false);
    fill.finish(1);
    await search;
    expect(pending.settled).toBe(true);
  });

  it('a failed backfill leaves the vectors pending and fails the search that waited for it', async () => {
    let fail = true;
    const pending = new PendingSearchVectors(async () => {
      if (fail) throw new Error('database is gone');
    });
    await expect(pending.fillIfPending()).rejects.toThrow('database is gone');
    expect(pending.settled).toBe(false);
    fail = false;
    await pending.fillIfPending();
    expect(pending.settled).toBe(true);
  });
});
