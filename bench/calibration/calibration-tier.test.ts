import { describe, expect, it } from 'vitest';
import { holdsOut } from './calibration-tier';

describe('calibration held-out split', () => {
  it('spreads the held-out runs over the whole stream, so both sets end together', () => {
    const held = Array.from({ length: 350 }, (_, index) => index).filter((index) => holdsOut(index, 200, 150));
    expect(held).toHaveLength(150);
    // Every window of 70 runs holds 30 of them: no stretch of the stream is training-only or held-out-only.
    for (let start = 0; start + 70 <= 350; start += 70) expect(held.filter((index) => index >= start && index < start + 70)).toHaveLength(30);
    expect(Math.max(...held)).toBeGreaterThanOrEqual(345);
  });
});
