import { describe, expect, it } from 'vitest';
import type { ArmEstimate } from './lin-ucb';
import { chooseSafeArm, SafetyLedger } from './safe-exploration';

const arm = (name: string, mean: number, bonus: number): ArmEstimate => ({ arm: name, mean, bonus, upper: mean + bonus });

describe('chooseSafeArm', () => {
  it('plays the default plan when nothing is learned: ties go to the first arm', () => {
    const choice = chooseSafeArm([arm('default', 0, 0.3), arm('b', 0, 0.3), arm('c', 0, 0.3)], 5, true);
    expect(choice.chosen.arm).toBe('default');
    expect(choice.explored).toBe(false);
    expect(choice.loss).toEqual([0, 0.3, 0.3]);
  });

  it('never plays an arm whose risked loss (default mean − its lower bound) exceeds the allowance, however optimistic', () => {
    const estimates = [arm('default', 0.6, 0.02), arm('wild', 0.5, 0.4), arm('close', 0.58, 0.05)];
    const tight = chooseSafeArm(estimates, 0.1, true);
    expect(tight.safe).toEqual([true, false, true]);
    expect(tight.chosen.arm).toBe('close');
    expect(tight.explored).toBe(true);
    const loose = chooseSafeArm(estimates, 1, true);
    expect(loose.chosen.arm).toBe('wild');
  });

  it('plays the greedy safe arm when exploring is not allowed', () => {
    const choice = chooseSafeArm([arm('default', 0.5, 0.05), arm('better', 0.7, 0.1), arm('unknown', 0.5, 0.5)], 1, false);
    expect(choice.chosen.arm).toBe('better');
    expect(choice.explored).toBe(false);
  });

  it('keeps the default playable with no allowance at all', () => {
    expect(chooseSafeArm([arm('default', 0.2, 0.5), arm('b', 0.3, 0.5)], 0, true).chosen.arm).toBe('default');
    // An arm whose lower bound is above the default's mean risks nothing: it stays playable.
    expect(chooseSafeArm([arm('default', 0.2, 0.5), arm('b', 0.9, 0.5)], 0, true).chosen.arm).toBe('b');
  });

  it('sizes lower bounds by the confidence given, in spreads, rather than by the exploration bonus', () => {
    const estimates = [{ ...arm('default', 0.6, 0.02), spread: 0.1 }, { ...arm('b', 0.62, 0.02), spread: 0.1 }];
    expect(chooseSafeArm(estimates, 0.01, false).chosen.arm).toBe('b');
    // At 1 spread b's lower bound (0.52) sits 0.08 under the default's mean: too much for 0.01.
    const wide = chooseSafeArm(estimates, 0.01, false, 1);
    expect(wide.lower[1]).toBeCloseTo(0.52, 12);
    expect(wide.chosen.arm).toBe('default');
  });
});

describe('SafetyLedger', () => {
  it('lends a window margin × window, spent by what decisions risk and returned as they leave the window', () => {
    const ledger = new SafetyLedger({ margin: 0.1, window: 4, share: 1, perHour: 100 });
    expect(ledger.allowance()).toBeCloseTo(0.4, 12);
    ledger.record(true, 0.3);
    expect(ledger.allowance()).toBeCloseTo(0.1, 12);
    for (let step = 0; step < 3; step++) ledger.record(false, 0);
    // The 0.3 is now outside the last window − 1 decisions.
    expect(ledger.allowance()).toBeCloseTo(0.4, 12);
  });

  it('with a window of 1 is the per-decision rule: the margin alone', () => {
    const ledger = new SafetyLedger({ margin: 0.05, window: 1, share: 1, perHour: 100 });
    ledger.record(true, 0.05);
    expect(ledger.allowance()).toBeCloseTo(0.05, 12);
  });

  it('allows at most share × decisions explorations, and perHour in any hour', () => {
    const ledger = new SafetyLedger({ margin: 1, window: 1, share: 0.25, perHour: 100 });
    let explored = 0;
    for (let step = 0; step < 40; step++) {
      const allowed = ledger.allows();
      ledger.record(allowed, 0);
      if (allowed) explored += 1;
    }
    expect(explored).toBe(10);

    let now = 0;
    const hourly = new SafetyLedger({ margin: 1, window: 1, share: 1, perHour: 2 }, () => now);
    expect(hourly.allows()).toBe(true);
    hourly.record(true, 0);
    hourly.record(true, 0);
    expect(hourly.allows()).toBe(false);
    now = 3_600_001;
    expect(hourly.allows()).toBe(true);
  });
});
