import { describe, expect, it } from 'vitest';
import { WriteBehindQueue } from './write-behind-queue';

describe('WriteBehindQueue', () => {
  it('runs tasks after the caller has moved on, in order, and flush waits for all of them', async () => {
    const queue = new WriteBehindQueue({ delayMs: 5 });
    const ran: string[] = [];
    queue.enqueue('a', async () => void ran.push('a'));
    queue.enqueue('b', async () => void ran.push('b'));
    expect(ran).toEqual([]);
    await queue.flush();
    expect(ran).toEqual(['a', 'b']);
    expect(queue.stats).toEqual({ queued: 2, done: 2, failed: 0, dropped: 0, pending: 0 });
  });

  it('logs and counts a failed task and goes on with the next', async () => {
    const warnings: string[] = [];
    const queue = new WriteBehindQueue({ delayMs: 0, warn: (message) => warnings.push(message) });
    const ran: string[] = [];
    queue.enqueue('plan write', async () => Promise.reject(new Error('disk full')));
    queue.enqueue('next', async () => void ran.push('next'));
    await queue.flush();
    expect(ran).toEqual(['next']);
    expect(warnings).toEqual([expect.stringContaining('plan write failed')]);
    expect(warnings[0]).toContain('disk full');
    expect(queue.stats).toMatchObject({ done: 1, failed: 1, pending: 0 });
  });

  it('drops what does not fit rather than growing without bound', async () => {
    const queue = new WriteBehindQueue({ limit: 2, delayMs: 1_000 });
    expect(queue.enqueue('1', async () => undefined)).toBe(true);
    expect(queue.enqueue('2', async () => undefined)).toBe(true);
    expect(queue.enqueue('3', async () => undefined)).toBe(false);
    expect(queue.stats).toMatchObject({ queued: 2, dropped: 1, pending: 2 });
    await queue.flush(); // does not wait for the timer
    expect(queue.stats).toMatchObject({ done: 2, pending: 0 });
  });

  it('drains once a batch is pending, without waiting for a timer a tight loop never lets fire', async () => {
    const queue = new WriteBehindQueue({ batch: 3, delayMs: 60_000 });
    const ran: string[] = [];
    for (const name of ['a', 'b', 'c']) queue.enqueue(name, async () => void ran.push(name));
    // Only microtasks from here on: a timer could not fire.
    for (let turn = 0; turn < 20 && queue.stats.done < 3; turn++) await Promise.resolve();
    expect(ran).toEqual(['a', 'b', 'c']);
    expect(queue.stats).toMatchObject({ done: 3, pending: 0 });
  });

  it('picks up a task queued while it drains', async () => {
    const queue = new WriteBehindQueue({ delayMs: 0 });
    const ran: string[] = [];
    queue.enqueue('first', async () => {
      ran.push('first');
      queue.enqueue('second', async () => void ran.push('second'));
    });
    await queue.flush();
    expect(ran).toEqual(['first', 'second']);
  });
});
