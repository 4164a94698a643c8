import type { CandidateEstimates, EstimatedField } from '../types';

/**
 * The order of the nine estimated fields where the planner keeps point estimates in a flat
 * Float64Array (one row of FIELD_COUNT per candidate): its hot loop over ~1,000 candidates reads
 * only the values to test constraints, score and prune, and builds the full estimates (with their
 * intervals) for the plans that survive (planner/plan-pipeline.ts, optimizer/scored-table.ts).
 */
export const ESTIMATE_FIELDS = Object.freeze([
  'accuracy', 'costUsd', 'latencySeconds', 'tokens', 'risk', 'hallucination', 'contextLoss', 'cacheHit', 'verificationConfidence',
] as const satisfies readonly EstimatedField[]);

export const FIELD_COUNT = ESTIMATE_FIELDS.length;

/** Each field's column in a row. */
export const FIELD: Readonly<Record<EstimatedField, number>> = Object.freeze(
  Object.fromEntries(ESTIMATE_FIELDS.map((field, column) => [field, column])) as Record<EstimatedField, number>,
);

/** A candidate's point estimates written to its row. */
export function writePointValues(estimates: CandidateEstimates, out: Float64Array, offset: number): void {
  for (let column = 0; column < FIELD_COUNT; column++) out[offset + column] = estimates[ESTIMATE_FIELDS[column]].value;
}
