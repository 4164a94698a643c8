import type { ScoredTable } from '../contracts/optimizer';
import { FIELD, FIELD_COUNT } from '../costmodel/estimate-fields';
import type { ScoredCandidate } from '../types';
import { scoredTableOf } from './scored-table';

/**
 * Dominated-candidate pruning, in the spirit of PostgreSQL's add_path(): a plan that is no
 * better than another on any estimated axis and worse on one can never be the answer, so
 * it is dropped before ranking and recorded.
 *
 * B dominates A when B's point estimates are at least as good on all nine axes (accuracy,
 * cache hit and verification confidence higher; cost, latency, tokens, risk,
 * hallucination and context loss lower), strictly better on one, AND B stands at least as
 * well against the hard constraints: B is feasible, or both are infeasible and B has no
 * more violations. That second condition is what "same shape" means here: it keeps a
 * feasible plan from being pruned in favour of a cheaper plan the constraints forbid, and
 * it makes the relation transitive.
 *
 * Every PlanScore term is monotone in its axis with non-negative weights, so a dominator
 * scores at least as high; visiting candidates best-score-first means a candidate can
 * only be dominated by one already kept: the sort-filter-skyline algorithm (Chomicki et
 * al., ICDE 2003). (On an exact score tie a dominator may be visited second; both then
 * survive, which costs pruning, never correctness.)
 */

const AXES = FIELD_COUNT;

/** The table's point values oriented so that lower is better on every axis (benefits negated). */
function axisValues(table: Pick<ScoredTable, 'count' | 'values'>): Float64Array {
  const values = table.values.slice(0, table.count * AXES);
  for (let offset = 0; offset < values.length; offset += AXES) {
    values[offset + FIELD.accuracy] = -values[offset + FIELD.accuracy];
    values[offset + FIELD.cacheHit] = -values[offset + FIELD.cacheHit];
    values[offset + FIELD.verificationConfidence] = -values[offset + FIELD.verificationConfidence];
  }
  return values;
}

/**
 * Best score first. The key packs the score (quantised to 2^-(52-b)) above the index (b bits)
 * in one exactly-representable integer, so a native Float64Array sort does the work: a JS
 * comparator sort of ~1000 entries cost ~200 µs here, the native sort ~20 µs. Quantisation
 * can only order two plans whose scores differ by < 1e-12 by input position instead; if one
 * dominated the other it then survives as well: less pruning, never a wrong one.
 */
function visitOrder(totals: Float64Array, count: number): Uint32Array {
  const indexBits = Math.max(1, Math.ceil(Math.log2(count + 1)));
  const indexSpan = 2 ** indexBits;
  const scoreSpan = 2 ** (52 - indexBits);
  const keys = new Float64Array(count);
  for (let index = 0; index < count; index++) {
    const total = totals[index];
    // total ∈ [−1, 1]; 1 − total puts the best first under an ascending sort.
    const unit = Number.isFinite(total) ? Math.min(1, Math.max(0, (1 - total) / 2)) : 1;
    keys[index] = Math.floor(unit * (scoreSpan - 1)) * indexSpan + index;
  }
  keys.sort();
  const order = new Uint32Array(count);
  for (let position = 0; position < count; position++) order[position] = keys[position] % indexSpan;
  return order;
}

export interface DominanceResult {
  /** Survivors, in best-score-first order. */
  readonly kept: readonly ScoredCandidate[];
  readonly dominated: readonly { readonly candidate: ScoredCandidate; readonly by: ScoredCandidate }[];
}

/**
 * A growing list of kept plans with their axis values copied contiguously, so the scan
 * below streams through a small block (~250 kept × 72 bytes) instead of gathering rows
 * from the whole value table.
 */
class KeptWindow {
  readonly indexes: Int32Array;
  readonly values: Float64Array;
  length = 0;
  constructor(capacity: number) {
    this.indexes = new Int32Array(capacity);
    this.values = new Float64Array(capacity * AXES);
  }
  push(index: number, source: Float64Array): void {
    this.indexes[this.length] = index;
    this.values.set(source.subarray(index * AXES, index * AXES + AXES), this.length * AXES);
    this.length++;
  }
  /**
   * Swap-to-front: a plan that dominates one sibling usually dominates the next
   * (compression and shape variants of the same retrieval and tier), so it is checked
   * first next time (the window-ordering heuristics of Bartolini et al., TODS 2008). A swap
   * rather than a shift keeps this O(1): shifting the window on every hit measured slower
   * on the bench goals than the comparisons it saved. Order never changes which plans survive.
   */
  moveToFront(position: number): void {
    if (position === 0) return;
    const indexes = this.indexes;
    const values = this.values;
    const index = indexes[position];
    indexes[position] = indexes[0];
    indexes[0] = index;
    const o = position * AXES;
    for (let axis = 0; axis < AXES; axis++) {
      const value = values[o + axis];
      values[o + axis] = values[axis];
      values[axis] = value;
    }
  }
}

/**
 * Position (≥ from) in the window of a kept plan that dominates plan `index`, or −1. Kept
 * small and monomorphic (typed arrays and numbers only) so V8 keeps it optimised: this
 * loop runs ~50k times per goal.
 */
function findDominator(kept: KeptWindow, from: number, values: Float64Array, index: number): number {
  const base = index * AXES;
  const a0 = values[base], a1 = values[base + 1], a2 = values[base + 2], a3 = values[base + 3], a4 = values[base + 4];
  const a5 = values[base + 5], a6 = values[base + 6], a7 = values[base + 7], a8 = values[base + 8];
  const window = kept.values;
  const length = kept.length;
  for (let position = from; position < length; position++) {
    const o = position * AXES;
    // Accuracy and cost decide ~80% of the pairs (measured on bench goals), so they go first.
    if (window[o] > a0 || window[o + 1] > a1 || window[o + 2] > a2 || window[o + 3] > a3 || window[o + 4] > a4) continue;
    if (window[o + 5] > a5 || window[o + 6] > a6 || window[o + 7] > a7 || window[o + 8] > a8) continue;
    if (
      window[o] < a0 || window[o + 1] < a1 || window[o + 2] < a2 || window[o + 3] < a3 || window[o + 4] < a4 ||
      window[o + 5] < a5 || window[o + 6] < a6 || window[o + 7] < a7 || window[o + 8] < a8
    ) {
      return position;
    }
  }
  return -1;
}

export function pruneDominated(scored: readonly ScoredCandidate[]): DominanceResult {
  const { order, dominatedBy } = dominance(scored);
  const kept: ScoredCandidate[] = [];
  const dominated: { candidate: ScoredCandidate; by: ScoredCandidate }[] = [];
  for (let position = 0; position < order.length; position++) {
    const index = order[position];
    if (dominatedBy[index] < 0) kept.push(scored[index]);
    else dominated.push({ candidate: scored[index], by: scored[dominatedBy[index]] });
  }
  return { kept, dominated };
}

/**
 * The pruning itself, as indexes: the visiting order (best score first) and, per candidate, the
 * index of the kept plan that dominates it (−1: kept). The optimizer reads these directly, so a plan's
 * ~700 dominated candidates are turned into their rejection records once, not via pairs first.
 */
export function dominance(scored: readonly ScoredCandidate[]): { readonly order: Uint32Array; readonly dominatedBy: Int32Array } {
  return dominanceOf(scoredTableOf(scored));
}

/** dominance() over a table's columns: no estimate objects are read. */
export function dominanceOf(table: Pick<ScoredTable, 'count' | 'values' | 'totals' | 'feasible' | 'violations'>): { readonly order: Uint32Array; readonly dominatedBy: Int32Array } {
  const count = table.count;
  const values = axisValues(table);
  const order = visitOrder(table.totals, count);
  const feasible = table.feasible;
  const violationCount = new Int32Array(count);
  for (let index = 0; index < count; index++) violationCount[index] = table.violations[index].length;
  const keptFeasible = new KeptWindow(count);
  const keptAll = new KeptWindow(count);
  const dominatedBy = new Int32Array(count).fill(-1);
  for (let position = 0; position < count; position++) {
    const index = order[position];
    let by = -1;
    if (feasible[index] === 1) {
      // A feasible plan can only be dominated by a feasible one.
      const found = findDominator(keptFeasible, 0, values, index);
      if (found >= 0) {
        by = keptFeasible.indexes[found];
        keptFeasible.moveToFront(found);
      }
    } else {
      // An infeasible one by any kept plan that is feasible or has no more violations.
      for (let found = findDominator(keptAll, 0, values, index); found >= 0; found = findDominator(keptAll, found + 1, values, index)) {
        const other = keptAll.indexes[found];
        if (feasible[other] === 1 || violationCount[other] <= violationCount[index]) {
          by = other;
          break;
        }
      }
    }
    if (by >= 0) {
      dominatedBy[index] = by;
      continue;
    }
    keptAll.push(index, values);
    if (feasible[index] === 1) keptFeasible.push(index, values);
  }
  return { order, dominatedBy };
}
