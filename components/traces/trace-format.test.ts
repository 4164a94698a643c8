import { describe, expect, it } from 'vitest';
import { formatAttribute, formatMs, formatTimestamp } from './trace-format';

describe('trace formatting', () => {
  it('formats durations by magnitude', () => {
    expect([formatMs(0), formatMs(0.42), formatMs(12.4), formatMs(999), formatMs(1500), formatMs(Number.NaN)]).toEqual(['0 ms', '0.4 ms', '12 ms', '999 ms', '1.50 s', '–']);
  });

  it('formats timestamps in UTC and keeps unparseable text', () => {
    expect(formatTimestamp('2026-11-30T04:39:20.123Z')).toBe('2026-11-30 04:39:20 UTC');
    expect(formatTimestamp('soon')).toBe('soon');
  });

  it('shows strings raw and other attribute values as JSON', () => {
    expect([formatAttribute('bm25'), formatAttribute(3), formatAttribute({ a: [1] }), formatAttribute(undefined)]).toEqual(['bm25', '3', '{"a":[1]}', '']);
  });
});
