import { describe, expect, it } from 'vitest';
import { TimeSlice } from './time-slice';

/** A clock the test moves by hand: a loaded machine's scheduling cannot spend the budget behind its back. */
function manualClock(): { now: () => number; advance: (ms: number) => void } {
  let time = 0;
  return { now: () => time, advance: (ms) => (time += ms) };
}

/** Queues other work for the next turn and says whether it has run. */
function otherWork(): () => boolean {
  let ran = false;
  setImmediate(() => (ran = true));
  return () => ran;
}

describe('TimeSlice', () => {
  it('gives other work a turn once the budget is spent, not before', async () => {
    const clock = manualClock();
    const slice = new TimeSlice(20, clock.now);
    const ran = otherWork();
    clock.advance(19);
    await slice.yieldIfSpent();
    expect(ran()).toBe(false);
    clock.advance(1);
    await slice.yieldIfSpent();
    expect(ran()).toBe(true);
  });

  it('starts a new budget after each turn', async () => {
    const clock = manualClock();
    const slice = new TimeSlice(20, clock.now);
    clock.advance(25);
    await slice.yieldIfSpent();
    const ran = otherWork();
    clock.advance(15);
    await slice.yieldIfSpent();
    expect(ran()).toBe(false);
    clock.advance(5);
    await slice.yieldIfSpent();
    expect(ran()).toBe(true);
  });
});
