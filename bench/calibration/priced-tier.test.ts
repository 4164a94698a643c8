import { describe, expect, it } from 'vitest';
import { seededRandom } from '../planner-goals';
import { lognormalDraw, normalDraw, replyFrom } from './priced-tier';

describe('priced calibration tier', () => {
  it('draws standard normals: mean ≈ 0, sd ≈ 1 over many seeded draws', () => {
    const random = seededRandom(1);
    const draws = Array.from({ length: 20_000 }, () => normalDraw(random));
    const mean = draws.reduce((sum, value) => sum + value, 0) / draws.length;
    const sd = Math.sqrt(draws.reduce((sum, value) => sum + (value - mean) ** 2, 0) / draws.length);
    expect(Math.abs(mean)).toBeLessThan(0.03);
    expect(Math.abs(sd - 1)).toBeLessThan(0.03);
  });

  it('draws lognormals around the median, right-skewed, the same for the same seed', () => {
    const draw = (seed: number) => Array.from({ length: 5000 }, ((random) => () => lognormalDraw(random, 120, 0.5))(seededRandom(seed)));
    const values = draw(2).sort((a, b) => a - b);
    expect(values[2500]).toBeGreaterThan(110);
    expect(values[2500]).toBeLessThan(130);
    expect(values[4750] - values[2500]).toBeGreaterThan(values[2500] - values[250]);
    expect(values.every((value) => value > 0)).toBe(true);
    expect(draw(2).sort((a, b) => a - b)).toEqual(values);
  });

  it('replies with the requested number of the prompt\'s words and a citation', () => {
    expect(replyFrom('Context: [1] checkout pods ran out of memory', 4)).toBe('checkout pods ran out [1].');
    expect(replyFrom('a b', 3)).toBe('a b a [1].');
    expect(replyFrom('', 2)).toBe('context context [1].');
  });
});
