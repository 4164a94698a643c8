/**
 * A plan's rejected candidates as the planner holds them: the generator's cuts (a frozen list shared
 * by every goal of the same generation key) and the optimizer's dominated plans (DominatedList,
 * records built when read). The live EXPLAIN lists them all, on first read; a stored EXPLAIN keeps
 * the best few of each rule (stored-explain.ts) straight from these parts, so a plan that is only
 * executed or stored never builds the ~700 dominated records nor a ~4,000-entry concatenation.
 */
import type { DominatedList } from '../contracts/optimizer';
import type { RejectedCandidate } from '../types';

export interface RejectionParts {
  readonly generated: readonly RejectedCandidate[];
  readonly dominated?: DominatedList;
}

/** Every rejected candidate: the generator's, then the dominated ones. */
export function allRejected(parts: RejectionParts): readonly RejectedCandidate[] {
  return parts.dominated && parts.dominated.count > 0 ? [...parts.generated, ...parts.dominated.records()] : parts.generated;
}

export const rejectedCountOf = (parts: RejectionParts): number => parts.generated.length + (parts.dominated?.count ?? 0);

/** The parts behind an EXPLAIN whose `rejectedCandidates` is read lazily (explain-stage.ts). */
const partsByExplain = new WeakMap<object, RejectionParts>();

export function registerRejectionParts(explain: object, parts: RejectionParts): void {
  partsByExplain.set(explain, parts);
}

export const rejectionPartsOf = (explain: object): RejectionParts | undefined => partsByExplain.get(explain);
