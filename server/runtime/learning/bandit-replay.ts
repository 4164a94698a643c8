/**
 * Offline replay of the runtime's LinUCB over logged per-query rewards of every arm (full
 * feedback logged once, bandit feedback replayed: the bandit only ever sees the reward of the arm
 * it played). Because every arm's reward is known for every query, the replay is an unbiased
 * evaluation without the rejection sampling of Li et al. (WSDM 2011), and any number of shuffled
 * orders costs milliseconds. bench/bandit-bench.ts logs the rewards; this module replays them.
 */
import { estimateArm, freshArm, updateArm, type ArmState } from './lin-ucb';
import { RewardNoise } from './reward-noise';
import { chooseSafeArm, SafetyLedger } from './safe-exploration';

export interface ReplayItem {
  readonly group: string;
  readonly context: readonly number[];
  /** Reward of each arm on this query, indexed like the arm list. */
  readonly rewards: readonly number[];
  /**
   * The arms the bandit may choose among here, best prior first (the runtime's top_k_arms over
   * the optimizer's ranking); all arms, in index order, when absent. Ties go to the first, and the
   * first is the default plan the safety margin is measured from.
   */
  readonly allowed?: readonly number[];
}

export interface ReplayRun {
  /** Cumulative reward after each step. */
  readonly bandit: readonly number[];
  readonly fixed: readonly (readonly number[])[];
  /** Cumulative reward of the default plan (each query's first allowed arm): what the runtime plays without learning. */
  readonly defaultPlan: readonly number[];
  /** Best arm per query in hindsight: the regret reference. */
  readonly oracle: readonly number[];
  readonly choices: readonly number[];
  readonly explored: number;
}

/** mulberry32: a tiny seeded PRNG, so every shuffled order can be reproduced from its seed. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let value = state;
    value = Math.imul(value ^ (value >>> 15), value | 1);
    value ^= value + Math.imul(value ^ (value >>> 7), value | 61);
    return ((value ^ (value >>> 14)) >>> 0) / 4294967296;
  };
}

export function shuffledOrder(length: number, seed: number): number[] {
  const random = seededRandom(seed);
  const order = Array.from({ length }, (_, index) => index);
  for (let index = length - 1; index > 0; index--) {
    const swap = Math.floor(random() * (index + 1));
    [order[index], order[swap]] = [order[swap], order[index]];
  }
  return order;
}

export interface ReplayOptions {
  readonly alpha: number;
  readonly order: readonly number[];
  /**
   * The runtime's safe exploration (safe-exploration.ts): lower-bound margin and exploration share.
   * Absent: plain LinUCB (every optimistic pick allowed, no safety rule). There is no clock in a
   * replay, so the per-hour cap does not apply.
   */
  readonly safety?: { readonly margin: number; readonly window: number; readonly share: number; readonly confidence?: number };
  /**
   * Lower bounds at `confidence` spreads as if the reward noise had σ = 1 (the rule before the
   * bounds were scaled by the estimated σ̂, reward-noise.ts): for the bench's before/after line.
   */
  readonly unitNoise?: boolean;
}

export function replayBandit(items: readonly ReplayItem[], armCount: number, options: ReplayOptions): ReplayRun {
  const dimension = items[0]?.context.length ?? 0;
  const arms: ArmState[] = Array.from({ length: armCount }, (_, index) => freshArm(String(index), dimension));
  const bandit: number[] = [];
  const fixed: number[][] = Array.from({ length: armCount }, () => []);
  const oracle: number[] = [];
  const defaultPlan: number[] = [];
  const choices: number[] = [];
  const noise = new RewardNoise();
  const ledger = new SafetyLedger({ margin: options.safety?.margin ?? Number.POSITIVE_INFINITY, window: options.safety?.window ?? 1, share: options.safety?.share ?? 1, perHour: Number.POSITIVE_INFINITY });
  let defaultSum = 0;
  let explored = 0;
  let banditSum = 0;
  let oracleSum = 0;
  const fixedSums = new Array<number>(armCount).fill(0);
  for (const index of options.order) {
    const item = items[index];
    const candidates = item.allowed ?? arms.map((_, arm) => arm);
    const estimates = candidates.map((arm) => estimateArm(arms[arm], item.context, options.alpha));
    const confidence = options.safety?.confidence === undefined ? undefined : options.safety.confidence * (options.unitNoise ? 1 : noise.sigma());
    const { chosen, explored: didExplore, loss } = chooseSafeArm(estimates, ledger.allowance(), ledger.allows(), confidence);
    ledger.record(didExplore, loss[estimates.indexOf(chosen)]);
    const arm = Number(chosen.arm);
    // Centred on the running mean, as BanditLearner does (see its baseline()).
    const centred = item.rewards[arm] - (choices.length === 0 ? 0 : banditSum / choices.length);
    noise.observe(centred - chosen.mean);
    arms[arm] = updateArm(arms[arm], item.context, centred);
    if (didExplore) explored += 1;
    choices.push(arm);
    banditSum += item.rewards[arm];
    oracleSum += Math.max(...item.rewards);
    defaultSum += item.rewards[candidates[0]];
    bandit.push(banditSum);
    oracle.push(oracleSum);
    defaultPlan.push(defaultSum);
    item.rewards.forEach((reward, armIndex) => {
      fixedSums[armIndex] += reward;
      fixed[armIndex].push(fixedSums[armIndex]);
    });
  }
  return { bandit, fixed, oracle, defaultPlan, choices, explored };
}

/**
 * The worst window: min over every `size` consecutive steps of (mean reward of the bandit − mean
 * reward of the reference), from cumulative curves. Negative = the bandit fell behind there.
 */
export function worstWindow(bandit: readonly number[], reference: readonly number[], size: number): { readonly start: number; readonly gap: number } {
  const at = (curve: readonly number[], step: number) => (step < 0 ? 0 : curve[step]);
  let worst = { start: 0, gap: Number.POSITIVE_INFINITY };
  for (let end = Math.min(size, bandit.length) - 1; end < bandit.length; end++) {
    const start = end - Math.min(size, bandit.length) + 1;
    const length = end - start + 1;
    const gap = (at(bandit, end) - at(bandit, start - 1) - (at(reference, end) - at(reference, start - 1))) / length;
    if (gap < worst.gap) worst = { start, gap };
  }
  return worst;
}

/**
 * The step from which the bandit's cumulative reward stays at or above the reference's to the
 * end (the last crossing, not a lucky early one); undefined if it ends behind.
 */
export function overtakeStep(bandit: readonly number[], reference: readonly number[]): number | undefined {
  if (bandit.length === 0 || bandit[bandit.length - 1] < reference[reference.length - 1]) return undefined;
  let step = bandit.length - 1;
  while (step > 0 && bandit[step - 1] >= reference[step - 1]) step--;
  return step + 1;
}
