/**
 * Safe exploration for the plan bandit (issue 16.2). Two guards on top of LinUCB's choice:
 *
 *  1. Safety: playing arm a instead of the default plan (the optimizer's choice, offered first)
 *     risks at most loss(a) = max(0, mean(default) − lower(a)), lower = mean − confidence·spread
 *     (the bonus when no confidence is given). Over any
 *     `window` consecutive decisions the risked losses may add up to at most `margin × window`, so
 *     (while the confidence bounds hold) no window falls below the default plan by more than
 *     `margin` per run — the conservative-bandit constraint (Wu et al., ICML 2016; Kazerouni et al.,
 *     NeurIPS 2017) applied per sliding window instead of to the whole history. window = 1 is the
 *     per-decision rule "never try a plan whose lower bound is more than margin below the default's".
 *     Why not that rule by default: an untried arm's bound is wide, so after a few runs of the default
 *     no other arm is ever safe again and learning stops (bench:bandit prints both: per decision, 0.0
 *     explorations in 1,009 queries). The default is always safe: the worst case is the planner without learning.
 *  2. Budget: an optimistic pick (highest upper bound) that is not the greedy one (highest lower bound)
 *     — an exploration — is allowed on at most
 *     `share` of decisions and `perHour` per hour; otherwise the greedy safe arm is played. Counters,
 *     not coins: the same state and the same sequence of requests give the same plans (issue 15's
 *     reproducibility), and an exploration is marked in EXPLAIN (`learning.explored`).
 */
import type { ArmEstimate } from './lin-ucb';

export interface SafetySettings {
  /** Largest mean shortfall per run (reward units) any window may risk against the default plan. */
  readonly margin: number;
  /** Decisions per window (1: each decision on its own). */
  readonly window: number;
  /**
   * Width of the lower bound in standard errors: the caller passes learning.safe_confidence × σ̂
   * (reward-noise.ts), so lower = mean − confidence·σ̂·√(xᵀA⁻¹x). Wider than LinUCB's α on purpose:
   * α sizes optimism, this sizes how sure "not worse" must be.
   */
  readonly confidence: number;
  /** Largest share of decisions that may explore, in [0, 1]. */
  readonly share: number;
  /** Largest number of explorations in any rolling hour. */
  readonly perHour: number;
}

export interface SafeChoice {
  readonly chosen: ArmEstimate;
  /**
   * Highest lower bound among the safe arms: what is played when exploring is not allowed. The lower
   * bound, not the mean: an arm replaces the default only once it is believed better with confidence
   * (bench:bandit, bounds at α's width: mean-greedy 681.6 cumulative, worst window −0.084;
   * lower-bound-greedy 686.0, −0.071; with learning.safe_confidence 1: 695.8, −0.034).
   */
  readonly greedy: ArmEstimate;
  /** The chosen arm is not the greedy one: it was played for what it might teach. */
  readonly explored: boolean;
  /** Per arm, in the order given: lower bound, risked loss against the default, and whether it was playable. */
  readonly lower: readonly number[];
  readonly loss: readonly number[];
  readonly safe: readonly boolean[];
}

const TIE = 1e-12;

/**
 * Chooses among `estimates` (the default plan first, then the optimizer's order, which breaks ties)
 * the arms whose risked loss fits in `allowance`: the optimistic one when `mayExplore`, else the greedy one.
 */
export function chooseSafeArm(estimates: readonly ArmEstimate[], allowance: number, mayExplore: boolean, confidence?: number): SafeChoice {
  if (estimates.length === 0) throw new RangeError('no arm to choose from');
  const lower = estimates.map((estimate) => estimate.mean - (confidence !== undefined && estimate.spread !== undefined ? confidence * estimate.spread : estimate.bonus));
  const loss = lower.map((bound, index) => (index === 0 ? 0 : Math.max(0, estimates[0].mean - bound)));
  const safe = loss.map((risked, index) => index === 0 || risked <= allowance + TIE);
  let greedy = estimates[0];
  let optimistic = estimates[0];
  estimates.forEach((estimate, index) => {
    if (!safe[index]) return;
    if (lower[index] > lower[estimates.indexOf(greedy)] + TIE) greedy = estimate;
    if (estimate.upper > optimistic.upper + TIE) optimistic = estimate;
  });
  const chosen = mayExplore ? optimistic : greedy;
  return { chosen, greedy, explored: chosen.arm !== greedy.arm, lower, loss, safe };
}

/**
 * The window's risked losses and the exploration counters. `allowance()` and `allows()` before a
 * decision; `record()` after it. In memory per process: a restart starts a fresh ledger, which can
 * only delay exploration (an empty window has its whole allowance; see the README's learning notes).
 */
export class SafetyLedger {
  private decisions = 0;
  private explorations = 0;
  private readonly losses: number[] = [];
  private readonly recent: number[] = [];

  constructor(
    private readonly settings: Omit<SafetySettings, 'confidence'>,
    private readonly now: () => number = Date.now,
  ) {}

  /** What the next decision may risk: the window's allowance less what its other decisions risked. */
  allowance(): number {
    const window = Math.max(1, Math.round(this.settings.window));
    const others = window === 1 ? [] : this.losses.slice(-(window - 1));
    return this.settings.margin * window - others.reduce((sum, loss) => sum + loss, 0);
  }

  /** Whether the exploration budget allows an optimistic pick now. */
  allows(): boolean {
    if (this.explorations + 1 > this.settings.share * (this.decisions + 1) + TIE) return false;
    const hourAgo = this.now() - 3_600_000;
    while (this.recent.length > 0 && this.recent[0] <= hourAgo) this.recent.shift();
    return this.recent.length < this.settings.perHour;
  }

  record(explored: boolean, loss: number): void {
    this.decisions += 1;
    this.losses.push(loss);
    if (this.losses.length > Math.max(1, Math.round(this.settings.window))) this.losses.shift();
    if (!explored) return;
    this.explorations += 1;
    this.recent.push(this.now());
  }

  status(): { readonly decisions: number; readonly explorations: number; readonly lastHour: number; readonly allowance: number } {
    return { decisions: this.decisions, explorations: this.explorations, lastHour: this.recent.length, allowance: this.allowance() };
  }
}
