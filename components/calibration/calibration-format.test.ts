import { describe, expect, it } from 'vitest';
import { MIN_COVERAGE_SAMPLES, coverageCell, coverageTone, formatFieldValue, logScale } from './calibration-format';

describe('calibration formatting', () => {
  it('formats each field in its unit and grades coverage against the 0.85–0.95 band', () => {
    expect(formatFieldValue('tokens', 1234.4)).toBe('1,234');
    expect(formatFieldValue('latencySeconds', 0.25)).toBe('250 ms');
    expect(formatFieldValue('costUsd', 0)).toBe('$0');
    expect(formatFieldValue('accuracy', 0.5)).toBe('0.500');
    expect([coverageTone(0.9, 40), coverageTone(0.96, 40), coverageTone(0.5, 40), coverageTone(0, 0)]).toEqual(['good', 'warn', 'bad', 'none']);
  });

  // Issue 10: two runs outside their intervals read a red "0.00".
  it('says "too few samples" in neutral tone below the conformal threshold and keeps the figure from there on', () => {
    expect(MIN_COVERAGE_SAMPLES).toBe(20);
    expect(coverageCell(0, 2)).toEqual({ text: 'too few samples (n = 2)', tone: 'few', title: '2 of the 20 runs a coverage figure needs' });
    expect(coverageCell(1, 19)).toMatchObject({ text: 'too few samples (n = 19)', tone: 'few' });
    expect(coverageCell(0.9, 20)).toEqual({ text: '0.90', tone: 'good', title: '18 of 20 actuals inside their p05–p95 interval' });
    expect(coverageCell(0.25, 20)).toMatchObject({ text: '0.25', tone: 'bad' });
    expect(coverageCell(0, 0)).toMatchObject({ text: '—', tone: 'none' });
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
