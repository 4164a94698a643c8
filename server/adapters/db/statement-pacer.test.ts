import { describe, expect, it } from 'vitest';
import { StatementPacer } from './statement-pacer';

describe('StatementPacer', () => {
  it('shrinks batches that overrun the target and grows ones well under it, within its bounds', () => {
    const pacer = new StatementPacer({ initialRows: 64, maxRows: 256, minRows: 1, targetMs: 40 });
    pacer.record(160);
    expect(pacer.rows).toBe(16);
    pacer.record(700);
    expect(pacer.rows).toBe(4);
    pacer.record(10);
    expect(pacer.rows).toBe(8);
    for (let step = 0; step < 10; step += 1) pacer.record(1);
    expect(pacer.rows).toBe(256);
    for (let step = 0; step < 10; step += 1) pacer.record(10_000);
    expect(pacer.rows).toBe(1);
  });

  it('times each batch on its clock and passes the current size', async () => {
    let time = 0;
    const pacer = new StatementPacer({ initialRows: 100, maxRows: 500, targetMs: 40, now: () => time });
    const sizes: number[] = [];
    for (const cost of [2, 0.8, 0.1]) {
      await pacer.run(async (rows) => {
        sizes.push(rows);
        time += rows * cost;
      });
    }
    // 100 rows × 2 ms = 200 ms → 25; 25 × 0.8 = 20 ms → 50; 50 × 0.1 = 5 ms → 100.
    expect(sizes).toEqual([100, 25, 50]);
    expect(pacer.rows).toBe(100);
  });

  it('never starts above its maximum or below its minimum', () => {
    expect(new StatementPacer({ initialRows: 1000, maxRows: 200 }).rows).toBe(200);
    expect(new StatementPacer({ initialRows: 0, maxRows: 200, minRows: 4 }).rows).toBe(4);
    expect(new StatementPacer({ initialRows: 0, maxRows: 200 }).rows).toBe(8);
    expect(new StatementPacer({ initialRows: 0, maxRows: 3 }).rows).toBe(3);
  });

  it('times batches in the process CPU time by default: waiting for a core does not shrink them', async () => {
    const pacer = new StatementPacer({ initialRows: 64, maxRows: 256, targetMs: 40 });
    await pacer.run(() => new Promise((resolve) => setTimeout(resolve, 200)));
    // By wall time 200 ms against a 40 ms target would have cut it to 16.
    expect(pacer.rows).toBeGreaterThan(64);
  });
});
