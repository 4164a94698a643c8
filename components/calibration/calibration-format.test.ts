import { describe, expect, it } from 'vitest';
import { coverageTone, formatFieldValue, logScale } from './calibration-format';

describe('calibration formatting', () => {
  it('formats each field in its unit and grades coverage against the 0.85–0.95 band', () => {
    expect(formatFieldValue('tokens', 1234.4)).toBe('1,234');
    expect(formatFieldValue('latencySeconds', 0.25)).toBe('250 ms');
    expect(formatFieldValue('costUsd', 0)).toBe('$0');
    expect(formatFieldValue('accuracy', 0.5)).toBe('0.500');
    expect([coverageTone(0.9, 10), coverageTone(0.96, 10), coverageTone(0.5, 10), coverageTone(0, 0)]).toEqual(['good', 'warn', 'bad', 'none']);
  });

  it('maps values onto a log scale with decade ticks, flooring zeros and widening a narrow range to a decade', () => {
    const scale = logScale([10, 1000, 0], 1);
    expect(scale.position(1)).toBe(0);
    expect(scale.position(1000)).toBe(1);
    expect(scale.position(0)).toBe(0);
    expect(scale.position(31.6227766)).toBeCloseTo(0.5, 5);
    expect(scale.ticks()).toEqual([1, 10, 100, 1000]);
    const narrow = logScale([100, 200], 1);
    expect(narrow.max / narrow.min).toBeCloseTo(10, 5);
    expect(logScale([], 1).ticks()).toEqual([1, 2, 5, 10]);
    expect(narrow.ticks()).toEqual([50, 100, 200]);
  });
});
