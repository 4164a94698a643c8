import type { ScoredTable } from '../contracts/optimizer';
import { FIELD_COUNT, writePointValues } from '../costmodel/estimate-fields';
import type { CandidatePlan, ConstraintViolation, ScoredCandidate } from '../types';

/** A ScoredTable whose rows become ScoredCandidates when first asked for (`build` makes row `index`). */
export class ColumnTable implements ScoredTable {
  readonly count: number;
  private readonly built: (ScoredCandidate | undefined)[];

  constructor(
    readonly candidates: readonly CandidatePlan[],
    readonly values: Float64Array,
    readonly totals: Float64Array,
    readonly feasible: Uint8Array,
    readonly violations: readonly (readonly ConstraintViolation[])[],
    private readonly build: (index: number) => ScoredCandidate,
  ) {
    this.count = candidates.length;
    this.built = new Array(this.count);
  }

  scored(index: number): ScoredCandidate {
    return (this.built[index] ??= this.build(index));
  }
}

/** The table of already scored candidates (an optimizer's choose() over objects runs the table code). */
export function scoredTableOf(scored: readonly ScoredCandidate[]): ScoredTable {
  const count = scored.length;
  const values = new Float64Array(count * FIELD_COUNT);
  const totals = new Float64Array(count);
  const feasible = new Uint8Array(count);
  for (let index = 0; index < count; index++) {
    const entry = scored[index];
    writePointValues(entry.estimates, values, index * FIELD_COUNT);
    totals[index] = entry.score.total;
    feasible[index] = entry.feasible ? 1 : 0;
  }
  return new ColumnTable(
    scored.map((entry) => entry.candidate),
    values,
    totals,
    feasible,
    scored.map((entry) => entry.violations),
    (index) => scored[index],
  );
}

/** Every row as a ScoredCandidate (the NO_FEASIBLE_PLAN error names the nearest of them). */
export const allScored = (table: ScoredTable): ScoredCandidate[] => Array.from({ length: table.count }, (_, index) => table.scored(index));
