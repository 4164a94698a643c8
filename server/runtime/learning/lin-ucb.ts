/**
 * Disjoint LinUCB (Li, Chu, Langford, Schapire, WWW 2010, Algorithm 1): per arm a ridge regression
 * of reward on the context, θ = A⁻¹b, and the arm with the largest θᵀx + α√(xᵀA⁻¹x) is played.
 *
 * Why LinUCB rather than Thompson sampling: its choice is a deterministic function of (state,
 * context), so EXPLAIN can print the exact estimate (mean + bonus) behind a plan and a replay of
 * the same state gives the same plan (principle #7); Thompson's draw would have to be seeded and
 * logged to be auditable. Its regret is Õ(√(dT)) (Chu et al., AISTATS 2011), the same order.
 *
 * A⁻¹ is kept directly and updated with Sherman–Morrison, O(d²) per update instead of an O(d³)
 * inversion; A and b are sufficient statistics, so a thumbs vote that changes a run's reward later
 * is an exact correction of b (A is unchanged: same context, same one observation).
 */

export interface ArmState {
  readonly arm: string;
  /** A⁻¹, row-major d×d. */
  readonly inverse: readonly number[];
  readonly b: readonly number[];
  readonly pulls: number;
  readonly rewardSum: number;
}

export interface ArmEstimate {
  readonly arm: string;
  readonly mean: number;
  readonly bonus: number;
  readonly upper: number;
  /** √(xᵀA⁻¹x): the estimate's spread at this context, before any width is applied. */
  readonly spread?: number;
}

/** A = λI to start (ridge λ = 1, as in the paper), so A⁻¹ = I/λ. */
export function freshArm(arm: string, dimension: number, ridge = 1): ArmState {
  const inverse = new Array<number>(dimension * dimension).fill(0);
  for (let index = 0; index < dimension; index++) inverse[index * dimension + index] = 1 / ridge;
  return Object.freeze({ arm, inverse: Object.freeze(inverse), b: Object.freeze(new Array<number>(dimension).fill(0)), pulls: 0, rewardSum: 0 });
}

function multiply(inverse: readonly number[], vector: readonly number[]): number[] {
  const dimension = vector.length;
  const out = new Array<number>(dimension).fill(0);
  for (let row = 0; row < dimension; row++) {
    let sum = 0;
    for (let column = 0; column < dimension; column++) sum += inverse[row * dimension + column] * vector[column];
    out[row] = sum;
  }
  return out;
}

const dot = (left: readonly number[], right: readonly number[]): number => left.reduce((sum, value, index) => sum + value * right[index], 0);

export function estimateArm(state: ArmState, context: readonly number[], alpha: number): ArmEstimate {
  if (context.length * context.length !== state.inverse.length) throw new RangeError(`context has ${context.length} features, arm ${state.arm} was trained on ${Math.sqrt(state.inverse.length)}`);
  const inverseContext = multiply(state.inverse, context);
  const mean = dot(multiply(state.inverse, state.b), context);
  const spread = Math.sqrt(Math.max(0, dot(context, inverseContext)));
  const bonus = alpha * spread;
  return Object.freeze({ arm: state.arm, mean, bonus, upper: mean + bonus, spread });
}

/** One observation (x, r): A += xxᵀ via Sherman–Morrison on A⁻¹, b += r·x. */
export function updateArm(state: ArmState, context: readonly number[], reward: number): ArmState {
  const dimension = context.length;
  const inverseContext = multiply(state.inverse, context);
  const denominator = 1 + dot(context, inverseContext);
  const inverse = state.inverse.map((value, index) => value - (inverseContext[Math.floor(index / dimension)] * inverseContext[index % dimension]) / denominator);
  return Object.freeze({
    arm: state.arm,
    inverse: Object.freeze(inverse),
    b: Object.freeze(state.b.map((value, index) => value + reward * context[index])),
    pulls: state.pulls + 1,
    rewardSum: state.rewardSum + reward,
  });
}

/** A reward already counted for context x changes by `delta` (e.g. a thumbs vote arrives): b += δ·x. */
export function correctReward(state: ArmState, context: readonly number[], delta: number): ArmState {
  return Object.freeze({ ...state, b: Object.freeze(state.b.map((value, index) => value + delta * context[index])), rewardSum: state.rewardSum + delta });
}

/**
 * The arm to play: highest upper bound, ties broken by the order given (the optimizer's PlanScore
 * rank), so an untrained bandit plays exactly what the optimizer would have.
 */
export function chooseArm(estimates: readonly ArmEstimate[]): { chosen: ArmEstimate; greedy: ArmEstimate; explored: boolean } {
  if (estimates.length === 0) throw new RangeError('no arm to choose from');
  const TIE = 1e-12;
  let chosen = estimates[0];
  let greedy = estimates[0];
  for (const estimate of estimates.slice(1)) {
    if (estimate.upper > chosen.upper + TIE) chosen = estimate;
    if (estimate.mean > greedy.mean + TIE) greedy = estimate;
  }
  // Explored = played for its uncertainty: another arm had the better mean.
  return { chosen, greedy, explored: greedy.arm !== chosen.arm && greedy.mean > chosen.mean + TIE };
}
