import type { DominatedList } from '../contracts/optimizer';
import type { CandidatePlan, RejectedCandidate } from '../types';

export const DOMINATED_RULE = 'optimizer.dominated';

/**
 * The `limit` best by score, ties in list order, best first: what a stable sort by score then a
 * slice gives, in one pass without sorting the ~700 a goal prunes. `scoreAt(i)` reads entry i.
 */
export function bestPositions(length: number, scoreAt: (position: number) => number, limit: number): number[] {
  const best: number[] = [];
  const scores: number[] = [];
  for (let position = 0; position < length; position++) {
    const score = scoreAt(position);
    if (best.length === limit && !(score > scores[limit - 1])) continue;
    // After every kept entry scoring at least as much: an equal score keeps its earlier place.
    let at = best.length;
    while (at > 0 && scores[at - 1] < score) at--;
    best.splice(at, 0, position);
    scores.splice(at, 0, score);
    if (best.length > limit) {
      best.pop();
      scores.pop();
    }
  }
  return best;
}

/**
 * The optimizer's dominated candidates as indexes into its scored table (in visiting order, best
 * score first) and the index of the kept plan that dominates each; a record is built when read.
 */
export class DominatedIndexList implements DominatedList {
  readonly count: number;
  private all?: readonly RejectedCandidate[];
  /** One reason string per dominator, not per plan: some 700 plans are dominated by a few dozen. */
  private readonly reasons = new Map<number, string>();

  constructor(
    private readonly candidates: readonly CandidatePlan[],
    private readonly totals: Float64Array,
    private readonly indexes: Uint32Array,
    private readonly dominators: Int32Array,
  ) {
    this.count = indexes.length;
  }

  records(): readonly RejectedCandidate[] {
    return (this.all ??= Array.from({ length: this.count }, (_, position) => this.record(position)));
  }

  best(limit: number): readonly RejectedCandidate[] {
    const all = this.all;
    return bestPositions(this.count, (position) => this.totals[this.indexes[position]], limit).map((position) => (all ? all[position] : this.record(position)));
  }

  /** Plain (readonly-typed) records: freezing each one was a third of the optimizer stage (bench:retrieval). */
  private record(position: number): RejectedCandidate {
    const index = this.indexes[position];
    const by = this.dominators[position];
    let reason = this.reasons.get(by);
    if (reason === undefined) this.reasons.set(by, (reason = `dominated by ${this.candidates[by].id}: no better on any estimate and worse on at least one`));
    return { candidate: this.candidates[index], stage: 'dominated', rule: DOMINATED_RULE, reason, score: this.totals[index] };
  }
}

/** A DominatedList over records an optimizer already built (one without `dominatedList`). */
export function dominatedListOf(records: readonly RejectedCandidate[]): DominatedList {
  return {
    count: records.length,
    records: () => records,
    best: (limit) => bestPositions(records.length, (position) => records[position].score ?? -Infinity, limit).map((position) => records[position]),
  };
}
