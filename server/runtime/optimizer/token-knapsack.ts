import { invalidInput } from '../errors';

/**
 * Packs context items into a token budget (0/1 knapsack: weight = tokens, value = relevance).
 *
 * Exact dynamic programming when n·(budget+1) ≤ DP_CELL_LIMIT (2e6 cells: a 2 MB choice
 * table and a few ms), the textbook O(nW) algorithm (Kellerer, Pferschy & Pisinger,
 * "Knapsack Problems", 2004, §2.3). Above that, the modified greedy of the same book
 * (§2.5): items by value density, then the better of that packing and the single most
 * valuable item that fits, which is guaranteed within a factor 2 of the optimum. The
 * reference architecture puts this boundary at v0.1 (knapsack/greedy) vs v0.2 (CP-SAT).
 *
 * Deterministic: ties go to the earlier item (the retriever's rank order), and both
 * `chosen` and `dropped` keep the input order.
 */

export interface KnapsackItem {
  readonly id: string;
  /** Whole tokens; fractional counts are rounded up (a partial token still costs one). */
  readonly tokens: number;
  readonly value: number;
}

export interface KnapsackResult<Item extends KnapsackItem> {
  readonly chosen: readonly Item[];
  readonly dropped: readonly Item[];
  readonly totalTokens: number;
  readonly totalValue: number;
  readonly method: 'dp' | 'greedy';
}

export const DP_CELL_LIMIT = 2_000_000;

function finish<Item extends KnapsackItem>(items: readonly Item[], take: readonly boolean[], method: 'dp' | 'greedy'): KnapsackResult<Item> {
  const chosen: Item[] = [];
  const dropped: Item[] = [];
  let totalTokens = 0;
  let totalValue = 0;
  items.forEach((item, index) => {
    if (take[index]) {
      chosen.push(item);
      totalTokens += Math.ceil(item.tokens);
      totalValue += item.value;
    } else dropped.push(item);
  });
  return { chosen, dropped, totalTokens, totalValue, method };
}

function dynamicProgramme(weights: readonly number[], values: readonly number[], budget: number): boolean[] {
  const count = weights.length;
  const width = budget + 1;
  const best = new Float64Array(width);
  const keep = new Uint8Array(count * width);
  for (let item = 0; item < count; item++) {
    const weight = weights[item];
    const value = values[item];
    if (value <= 0) continue;
    for (let capacity = budget; capacity >= weight; capacity--) {
      const withItem = best[capacity - weight] + value;
      // Strictly greater: on a tie the earlier items' packing stands.
      if (withItem > best[capacity]) {
        best[capacity] = withItem;
        keep[item * width + capacity] = 1;
      }
    }
  }
  const take = new Array<boolean>(count).fill(false);
  let capacity = budget;
  for (let item = count - 1; item >= 0; item--) {
    if (keep[item * width + capacity]) {
      take[item] = true;
      capacity -= weights[item];
    }
  }
  return take;
}

function modifiedGreedy(weights: readonly number[], values: readonly number[], budget: number): boolean[] {
  const count = weights.length;
  const order = Array.from({ length: count }, (_, index) => index).filter((index) => values[index] > 0);
  const density = (index: number) => (weights[index] === 0 ? Number.POSITIVE_INFINITY : values[index] / weights[index]);
  order.sort((left, right) => density(right) - density(left) || left - right);
  const take = new Array<boolean>(count).fill(false);
  let used = 0;
  let packed = 0;
  for (const index of order) {
    if (used + weights[index] <= budget) {
      take[index] = true;
      used += weights[index];
      packed += values[index];
    }
  }
  let single = -1;
  for (let index = 0; index < count; index++) {
    if (weights[index] <= budget && values[index] > 0 && (single < 0 || values[index] > values[single])) single = index;
  }
  if (single >= 0 && values[single] > packed) {
    const only = new Array<boolean>(count).fill(false);
    only[single] = true;
    return only;
  }
  return take;
}

export function packContext<Item extends KnapsackItem>(items: readonly Item[], budget: number): KnapsackResult<Item> {
  if (typeof budget !== 'number' || !Number.isFinite(budget) || budget < 0) {
    throw invalidInput('budget', `expected a non-negative number of tokens, got ${String(budget)}`);
  }
  const weights = items.map((item, index) => {
    if (typeof item.tokens !== 'number' || !Number.isFinite(item.tokens) || item.tokens < 0) {
      throw invalidInput(`items[${index}].tokens`, `expected a non-negative number, got ${String(item.tokens)}`);
    }
    if (typeof item.value !== 'number' || Number.isNaN(item.value)) throw invalidInput(`items[${index}].value`, `expected a number, got ${String(item.value)}`);
    return Math.ceil(item.tokens);
  });
  const values = items.map((item) => item.value);
  const capacity = Math.floor(budget);
  const exact = items.length * (capacity + 1) <= DP_CELL_LIMIT;
  const take = exact ? dynamicProgramme(weights, values, capacity) : modifiedGreedy(weights, values, capacity);
  return finish(items, take, exact ? 'dp' : 'greedy');
}
