import { describe, expect, it } from 'vitest';
import { isContextRuntimeError } from '../errors';
import { DP_CELL_LIMIT, packContext, type KnapsackItem } from './token-knapsack';

/** The optimum by trying all 2^n subsets. */
function bruteForce(items: readonly KnapsackItem[], budget: number): number {
  let best = 0;
  for (let mask = 0; mask < 1 << items.length; mask++) {
    let tokens = 0;
    let value = 0;
    for (let index = 0; index < items.length; index++) {
      if (mask & (1 << index)) {
        tokens += Math.ceil(items[index].tokens);
        value += items[index].value;
      }
    }
    if (tokens <= budget && value > best) best = value;
  }
  return best;
}

/** Deterministic LCG so failures reproduce. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state / 2147483648;
  };
}

const itemsFrom = (next: () => number, count: number, maxTokens: number): KnapsackItem[] =>
  Array.from({ length: count }, (_, index) => ({ id: `c${index}`, tokens: 1 + Math.floor(next() * maxTokens), value: Math.round(next() * 100) / 10 }));

describe('packContext', () => {
  it('matches brute force on 300 random small instances (exact DP)', () => {
    const next = random(42);
    for (let trial = 0; trial < 300; trial++) {
      const items = itemsFrom(next, 1 + Math.floor(next() * 11), 400);
      const budget = Math.floor(next() * 1200);
      const result = packContext(items, budget);
      expect(result.method).toBe('dp');
      expect(result.totalTokens).toBeLessThanOrEqual(budget);
      expect(result.totalValue).toBeCloseTo(bruteForce(items, budget), 9);
      expect(result.chosen.length + result.dropped.length).toBe(items.length);
    }
  });

  it('beats value-density greedy where greedy is not optimal', () => {
    // Greedy by density takes "a" (1.1/token) then nothing fits; the optimum is b + c.
    const items = [
      { id: 'a', tokens: 60, value: 66 },
      { id: 'b', tokens: 50, value: 50 },
      { id: 'c', tokens: 50, value: 50 },
    ];
    const result = packContext(items, 100);
    expect(result.chosen.map((item) => item.id)).toEqual(['b', 'c']);
    expect(result.dropped.map((item) => item.id)).toEqual(['a']);
  });

  it('falls back to the modified greedy above the DP cell limit and stays within half the optimum', () => {
    const next = random(7);
    for (let trial = 0; trial < 50; trial++) {
      const items = itemsFrom(next, 10, 400_000);
      const budget = 300_000 + Math.floor(next() * 900_000);
      expect(items.length * (budget + 1)).toBeGreaterThan(DP_CELL_LIMIT);
      const result = packContext(items, budget);
      expect(result.method).toBe('greedy');
      expect(result.totalTokens).toBeLessThanOrEqual(budget);
      expect(result.totalValue).toBeGreaterThanOrEqual(bruteForce(items, budget) / 2);
    }
  });

  it('prefers the earlier item on ties, keeps input order, and is deterministic', () => {
    const items = [
      { id: 'first', tokens: 10, value: 5 },
      { id: 'second', tokens: 10, value: 5 },
      { id: 'third', tokens: 5, value: 1 },
    ];
    const result = packContext(items, 15);
    expect(result.chosen.map((item) => item.id)).toEqual(['first', 'third']);
    expect(packContext(items, 15)).toEqual(result);
  });

  it('takes free items, skips worthless ones, and rounds partial tokens up', () => {
    const result = packContext(
      [
        { id: 'free', tokens: 0, value: 1 },
        { id: 'worthless', tokens: 1, value: 0 },
        { id: 'partial', tokens: 9.2, value: 3 },
      ],
      9,
    );
    expect(result.chosen.map((item) => item.id)).toEqual(['free']);
  });

  it('rejects a bad budget or item naming the field', () => {
    for (const [run, field] of [
      [() => packContext([], -1), 'budget'],
      [() => packContext([], Number.NaN), 'budget'],
      [() => packContext([{ id: 'x', tokens: -3, value: 1 }], 10), 'items[0].tokens'],
      [() => packContext([{ id: 'x', tokens: 3, value: Number.NaN }], 10), 'items[0].value'],
    ] as const) {
      let caught: unknown;
      try {
        run();
      } catch (error) {
        caught = error;
      }
      expect(isContextRuntimeError(caught) && caught.field).toBe(field);
    }
  });
});
