/**
 * The noise scale of rewards around the bandit's linear predictions, pooled over arms, so the safe
 * lower bound is in reward units: lower = mean − confidence · σ̂ · √(xᵀA⁻¹x). √(xᵀA⁻¹x) alone is the
 * estimate's spread for unit-variance noise (ridge regression's standard error is σ√(xᵀA⁻¹x)), and
 * a quality score in [0, 1] has σ ≤ 0.5 (Popoviciu's inequality), ~0.3 measured on the bench sets:
 * with σ taken as 1 the bounds were 2–3× too wide, so an arm that was better by 0.07 per run (bm25
 * over rerank on SciFact at load 25, where rerank's latency term costs 0.1) needed hundreds of
 * explorations before its lower bound passed the default's, and the safe bandit ended below the
 * best fixed plan (bench:bandit, issue 16.2: 658.83 vs 664.50).
 *
 * σ̂² = (w·σ₀² + Σe²) / (w + n), e the prequential error of each observed reward (the arm's
 * prediction for that context before the reward was learned): an error on data the fit had not seen,
 * which also carries the estimate's own error, so it over- rather than under-states the noise
 * early on. σ₀ = 0.5, the largest σ a score in [0, 1] can have, dominates until ~w observations.
 * Kept in memory per process like the exploration ledger: a restart starts again from σ₀, which can
 * only widen the bounds (play closer to the default plan), never loosen them.
 */
export const REWARD_NOISE_PRIOR = Object.freeze({ sigma: 0.5, weight: 20 });

export class RewardNoise {
  private squares = 0;
  private count = 0;

  constructor(private readonly prior: { readonly sigma: number; readonly weight: number } = REWARD_NOISE_PRIOR) {}

  /** One observed reward's error against the arm's prediction made before learning it. */
  observe(predictionError: number): void {
    if (!Number.isFinite(predictionError)) return;
    this.squares += predictionError * predictionError;
    this.count += 1;
  }

  sigma(): number {
    return Math.sqrt((this.prior.weight * this.prior.sigma ** 2 + this.squares) / (this.prior.weight + this.count));
  }

  status(): { readonly sigma: number; readonly observations: number } {
    return { sigma: this.sigma(), observations: this.count };
  }
}
