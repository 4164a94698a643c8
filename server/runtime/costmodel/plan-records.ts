/**
 * The small records a plan builds for each of its surviving candidates (a few dozen a goal):
 * estimate intervals, score components and scored candidates, as class instances rather than
 * object literals.
 *
 * Why classes: V8 tracks each object literal's allocation site and, when most of what a site
 * allocated is still alive at a scavenge, "pretenures" it — later objects from that site go
 * straight to the old generation. A plan's survivors all live until the plan is returned, so the
 * literal sites were pretenured, and each such allocation became several times slower: the
 * heuristic estimate() of one candidate took 4.5–5 µs instead of 0.7 µs, and the optimizer stage
 * 0.25 ms instead of 0.15 ms on the HotpotQA goals (same process, base vs. this change; with
 * `--no-allocation-site-pretenuring` the literals were as fast). Objects made by `new` do not
 * carry an allocation site, so they stay in the young generation where a plan's garbage belongs.
 * Their own enumerable fields are the interfaces' fields, so JSON, spreading and the tRPC
 * transformer see the same objects as before.
 */
import type { CandidateEstimates, CandidatePlan, ConstraintViolation, Estimate, PlanScore, PlanScoreWeights, ScoreComponents, ScoredCandidate } from '../types';

export class EstimateRange implements Estimate {
  constructor(
    readonly value: number,
    readonly low: number,
    readonly high: number,
  ) {}
}

export class CandidateEstimateSet implements CandidateEstimates {
  constructor(
    readonly accuracy: Estimate,
    readonly costUsd: Estimate,
    readonly latencySeconds: Estimate,
    readonly tokens: Estimate,
    readonly risk: Estimate,
    readonly hallucination: Estimate,
    readonly contextLoss: Estimate,
    readonly cacheHit: Estimate,
    readonly verificationConfidence: Estimate,
  ) {}
}

/** The set whose every field is `pick(field)`. */
export function estimateSetOf(pick: (field: keyof CandidateEstimates) => Estimate): CandidateEstimates {
  return new CandidateEstimateSet(
    pick('accuracy'), pick('costUsd'), pick('latencySeconds'), pick('tokens'), pick('risk'), pick('hallucination'), pick('contextLoss'), pick('cacheHit'), pick('verificationConfidence'),
  );
}

export class ScoreTerms implements ScoreComponents {
  constructor(
    readonly acc: number,
    readonly cost: number,
    readonly lat: number,
    readonly risk: number,
    readonly hall: number,
    readonly loss: number,
    readonly cache: number,
    readonly vrf: number,
  ) {}
}

export class PlanScoreRecord implements PlanScore {
  constructor(
    readonly total: number,
    readonly components: ScoreComponents,
    readonly weights: PlanScoreWeights,
  ) {}
}

export class ScoredCandidateRecord implements ScoredCandidate {
  constructor(
    readonly candidate: CandidatePlan,
    readonly estimates: CandidateEstimates,
    readonly score: PlanScore,
    readonly feasible: boolean,
    readonly violations: readonly ConstraintViolation[],
  ) {}
}
