import { type DominatedList, OPTIMIZER_CONTRACT, type OptimizerPlugin, type OptimizerResult, type ScoredTable } from '../contracts/optimizer';
import { ContextRuntimeError } from '../errors';
import type { ConstraintViolation, Constraints, RejectedCandidate, ScoredCandidate } from '../types';
import { dominanceOf } from './dominance';
import { DominatedIndexList } from './dominated-list';
import { allScored, scoredTableOf } from './scored-table';

/**
 * Selection over scored candidates: hard constraints decide feasibility (already recorded
 * on each ScoredCandidate), dominated plans are pruned, PlanScore ranks the rest, and the
 * candidate id breaks ties so the same inputs always choose the same plan (principle #7,
 * deterministic replay: the plan cache depends on it).
 */

export interface PlanOptimizerResult extends OptimizerResult {
  /** Plans pruned as dominated, each naming the plan that dominates it (built on first read). */
  readonly dominated: readonly RejectedCandidate[];
  readonly dominatedList: DominatedList;
}

const NEAREST_COUNT = 5;

const byRank = (left: ScoredCandidate, right: ScoredCandidate): number =>
  Number(right.feasible) - Number(left.feasible) || right.score.total - left.score.total || (left.candidate.id < right.candidate.id ? -1 : left.candidate.id > right.candidate.id ? 1 : 0);

/** How far past its limits a plan is: numeric overshoot as a fraction of the limit, 1 per boolean rule broken. */
export function violationSeverity(violations: readonly ConstraintViolation[]): number {
  let severity = 0;
  for (const violation of violations) {
    if (typeof violation.limit === 'number' && typeof violation.estimated === 'number') {
      severity += (violation.estimated - violation.limit) / Math.max(Math.abs(violation.limit), 1e-9);
    } else severity += 1;
  }
  return severity;
}

function describeConstraints(constraints: Constraints): string {
  const parts = Object.entries(constraints).map(([key, value]) => (typeof value === 'boolean' ? key : `${key} ≤ ${value}`));
  return parts.length > 0 ? parts.join(', ') : 'no caller constraints';
}

/**
 * The plans closest to feasible: fewest violations, then smallest overshoot, then best
 * score and id. A partial selection (O(n·count)) rather than a full sort: this runs on
 * the error path over every scored plan.
 */
export function nearestCandidates(scored: readonly ScoredCandidate[], count = NEAREST_COUNT): ScoredCandidate[] {
  const nearest: { entry: ScoredCandidate; severity: number }[] = [];
  const closer = (left: { entry: ScoredCandidate; severity: number }, right: { entry: ScoredCandidate; severity: number }) =>
    left.entry.violations.length - right.entry.violations.length || left.severity - right.severity || byRank(left.entry, right.entry);
  for (const entry of scored) {
    if (nearest.length === count && entry.violations.length > nearest[count - 1].entry.violations.length) continue;
    const item = { entry, severity: violationSeverity(entry.violations) };
    if (nearest.length === count && closer(item, nearest[count - 1]) >= 0) continue;
    let position = Math.min(nearest.length, count - 1);
    if (nearest.length < count) nearest.push(item);
    else nearest[position] = item;
    while (position > 0 && closer(nearest[position], nearest[position - 1]) < 0) {
      [nearest[position], nearest[position - 1]] = [nearest[position - 1], nearest[position]];
      position--;
    }
  }
  return nearest.map((item) => item.entry);
}

export function noFeasiblePlan(scored: readonly ScoredCandidate[], constraints: Constraints, extra: Record<string, unknown> = {}): ContextRuntimeError {
  const nearest = nearestCandidates(scored);
  const closest = nearest[0];
  const hint = closest ? `; nearest plan ${closest.candidate.id} fails: ${closest.violations.map((violation) => violation.message).join('; ')}` : '';
  return new ContextRuntimeError('NO_FEASIBLE_PLAN', `No candidate plan satisfies ${describeConstraints(constraints)} (${scored.length} scored)${hint}`, {
    details: {
      constraints,
      scored: scored.length,
      nearest: nearest.map((entry) => ({ candidateId: entry.candidate.id, candidate: entry.candidate, score: entry.score.total, estimates: entry.estimates, violations: entry.violations })),
      ...extra,
    },
  });
}

export class PlanOptimizer implements OptimizerPlugin {
  readonly contract = OPTIMIZER_CONTRACT;

  choose(scored: readonly ScoredCandidate[], constraints: Constraints): PlanOptimizerResult {
    return this.chooseFromTable(scoredTableOf(scored), constraints);
  }

  chooseFromTable(table: ScoredTable, constraints: Constraints): PlanOptimizerResult {
    if (!table.feasible.includes(1)) throw noFeasiblePlan(allScored(table), constraints);
    const { order, dominatedBy } = dominanceOf(table);
    const kept: ScoredCandidate[] = [];
    // A dominated plan needs its candidate and score total only, so its ScoredCandidate is never
    // built, and its rejection record only when someone reads it (DominatedIndexList).
    const dominatedIndexes = new Uint32Array(order.length);
    const dominators = new Int32Array(order.length);
    let dominatedCount = 0;
    for (let position = 0; position < order.length; position++) {
      const index = order[position];
      const by = dominatedBy[index];
      if (by < 0) {
        kept.push(table.scored(index));
        continue;
      }
      dominatedIndexes[dominatedCount] = index;
      dominators[dominatedCount++] = by;
    }
    const ranked = kept.sort(byRank);
    const dominatedList = new DominatedIndexList(table.candidates, table.totals, dominatedIndexes.subarray(0, dominatedCount), dominators.subarray(0, dominatedCount));
    return {
      chosen: ranked[0],
      ranked,
      dominatedList,
      get dominated() {
        return dominatedList.records();
      },
    };
  }
}

export const planOptimizer = new PlanOptimizer();
