/**
 * The online learning loop: LinUCB (./lin-ucb.ts) over plan shapes (./plan-arms.ts), context from
 * the Intent (./intent-features.ts). `decide` runs on the planning path and only reads memory;
 * everything that writes (judging a finished run, thumbs votes, persistence) goes through the
 * LearningQueue after the response has left.
 */
import { ContextRuntimeError } from '../errors';
import type { RunResult } from '../explain/explain-types';
import type { Intent, ScoredCandidate } from '../types';
import type { BanditStorePort, StoredArm, Thumb } from './bandit-store';
import { FEATURE_DIMENSION, FEATURE_NAMES, intentFeatures } from './intent-features';
import { LearningQueue } from './learning-queue';
import { type ArmEstimate, correctReward, estimateArm, freshArm, updateArm } from './lin-ucb';
import { type PlanArm, topArms } from './plan-arms';
import { RewardNoise } from './reward-noise';
import { blendedReward, efficiencyPenalty, judgedQuality, type RewardSettings } from './run-reward';
import { chooseSafeArm, SafetyLedger, type SafetySettings } from './safe-exploration';

/** Bump when the features change: state learned over another layout must not be reloaded. */
export const BANDIT_POLICY = `linucb-intent-v1-d${FEATURE_DIMENSION}`;

export interface LearningSettings {
  readonly enabled: boolean;
  readonly alpha: number;
  readonly topKArms: number;
  readonly reward: RewardSettings;
  readonly safety: SafetySettings;
  /** The optimizer plans with learned-v2 estimates (costmodel/learned-cost-model.ts). */
  readonly learnedEstimates: boolean;
}

export interface BanditExplain {
  readonly policy: string;
  readonly arm: string;
  readonly candidateId: string;
  /** The estimate the choice was made on: mean θᵀx, bonus α√(xᵀA⁻¹x), upper = mean + bonus, lower = mean − bonus. */
  readonly estimate: { readonly mean: number; readonly bonus: number; readonly upper: number; readonly lower: number };
  /**
   * True when another safe arm had the higher mean: this plan was played for what it might teach.
   * Exploration runs are rationed (learning.exploration_share / _per_hour) and are the only runs
   * whose plan may differ from the greedy one: leave them out when checking reproducibility.
   */
  readonly explored: boolean;
  readonly greedyArm: string;
  /** What PlanScore alone would have chosen: the default plan the safety margin is measured from. */
  readonly optimizerCandidateId: string;
  readonly alpha: number;
  /** learning.safe_margin: the mean shortfall per run a window of learning.safe_window decisions may risk. */
  readonly safeMargin: number;
  /** σ̂, the rewards' noise scale the lower bounds were sized by: lower = mean − learning.safe_confidence · σ̂ · spread. */
  readonly noiseSigma: number;
  /** What this decision could risk (the window's margin less what its other decisions risked). */
  readonly allowance: number;
  /** What the chosen arm risks: max(0, default's mean − its lower bound); 0 for the default. */
  readonly risked: number;
  /** Whether the exploration budget allowed an optimistic pick on this decision. */
  readonly explorationAllowed: boolean;
  /** Observed runs behind the chosen arm's estimate (0: the optimizer's ranking decided). */
  readonly samples: number;
  readonly features: Readonly<Record<string, number>>;
  readonly arms: readonly { readonly arm: string; readonly candidateId: string; readonly pulls: number; readonly mean: number; readonly bonus: number; readonly upper: number; readonly lower: number; readonly safe: boolean }[];
}

export interface ArmSummary {
  readonly arm: string;
  readonly pulls: number;
  readonly meanReward: number | null;
  /** Mean, bonus and upper bound at the arm's average context so far (the bias-only context before any pull). */
  readonly estimate: { readonly mean: number; readonly bonus: number; readonly upper: number };
  readonly weights: Readonly<Record<string, number>>;
}

const JUDGED_ENDS: ReadonlySet<RunResult['status']> = new Set(['completed', 'unverified', 'failed', 'rejected']);

const withSum = (state: ReturnType<typeof freshArm>, contextSum: readonly number[]): StoredArm => Object.freeze({ ...state, contextSum: Object.freeze([...contextSum]) });

export class BanditLearner {
  /** The policy id the arms and observations are stored under (the API reports it). */
  readonly policy = BANDIT_POLICY;
  private readonly arms = new Map<string, StoredArm>();
  private readonly untriedArms = new Map<string, StoredArm>();
  private loading?: Promise<void>;
  private readonly queue: LearningQueue;
  private readonly ledger: SafetyLedger;
  private readonly noise = new RewardNoise();

  constructor(
    private readonly store: BanditStorePort | undefined,
    readonly settings: LearningSettings,
    private readonly onError: (error: unknown) => void = (error) => console.warn('[learning] failed:', error),
    now: () => number = Date.now,
  ) {
    this.queue = new LearningQueue(onError);
    this.ledger = new SafetyLedger(settings.safety, now);
  }

  /**
   * Loads the persisted arms once; later calls return at once. Never rejects: learning must not
   * fail a plan, so an unreadable store plans from memory and the next call retries the load.
   */
  ready(): Promise<void> {
    this.loading ??= (async () => {
      try {
        for (const arm of (await this.store?.loadArms(BANDIT_POLICY, FEATURE_DIMENSION)) ?? []) if (!this.arms.has(arm.arm)) this.arms.set(arm.arm, arm);
      } catch (error) {
        this.loading = undefined;
        this.onError(error);
      }
    })();
    return this.loading;
  }

  /**
   * Rewards are stored centred on the mean reward over every arm so far: ridge regression shrinks
   * an arm toward 0, so uncentred an untried arm would look worse than any tried one with positive
   * rewards and never be played unless α were large (measured in bench:bandit: α = 0.3 never tried
   * graph, the best arm on multi-hop). Centred, an untried arm's prior is the average arm.
   */
  private baseline(): number {
    let pulls = 0;
    let total = 0;
    for (const state of this.arms.values()) {
      pulls += state.pulls;
      total += state.rewardSum;
    }
    return pulls === 0 ? 0 : total / pulls;
  }

  private armState(arm: string): StoredArm {
    return this.arms.get(arm) ?? this.untried(arm);
  }

  /** An arm never played: λI and zero sums, built once per arm (frozen) rather than on each of a decision's reads. */
  private untried(arm: string): StoredArm {
    let state = this.untriedArms.get(arm);
    if (!state) {
      state = withSum(freshArm(arm, FEATURE_DIMENSION), new Array<number>(FEATURE_DIMENSION).fill(0));
      this.untriedArms.set(arm, state);
    }
    return state;
  }

  /** Chooses among the top feasible arms. Reads memory only; call `ready()` first. */
  decide(ranked: readonly ScoredCandidate[], intent: Intent): { candidate: ScoredCandidate; explain: BanditExplain } | undefined {
    return this.decideAmong(topArms(ranked, this.settings.topKArms), intent);
  }

  /**
   * Chooses among given arms, the default plan first: the top feasible arms of a fresh plan, or
   * those a plan-cache entry kept, so a cache hit is still a decision the bandit learns from.
   */
  decideAmong(top: readonly PlanArm[], intent: Intent): { candidate: ScoredCandidate; explain: BanditExplain } | undefined {
    if (top.length === 0) return undefined;
    const context = intentFeatures(intent);
    const baseline = this.baseline();
    const estimates: ArmEstimate[] = top.map(({ arm }) => {
      const estimate = estimateArm(this.armState(arm), context, this.settings.alpha);
      return { ...estimate, mean: estimate.mean + baseline, upper: estimate.upper + baseline };
    });
    const explorationAllowed = this.ledger.allows();
    const allowance = this.ledger.allowance();
    // In standard errors: the spread times the rewards' estimated noise σ̂ (reward-noise.ts).
    const noiseSigma = this.noise.sigma();
    const { chosen, greedy, explored, lower, loss, safe } = chooseSafeArm(estimates, allowance, explorationAllowed, this.settings.safety.confidence * noiseSigma);
    const chosenIndex = top.findIndex(({ arm }) => arm === chosen.arm);
    this.ledger.record(explored, loss[chosenIndex]);
    const picked = top[chosenIndex];
    return {
      candidate: picked.candidate,
      explain: Object.freeze({
        policy: BANDIT_POLICY,
        arm: chosen.arm,
        candidateId: picked.candidate.candidate.id,
        estimate: { mean: chosen.mean, bonus: chosen.bonus, upper: chosen.upper, lower: lower[chosenIndex] },
        explored,
        greedyArm: greedy.arm,
        optimizerCandidateId: top[0].candidate.candidate.id,
        alpha: this.settings.alpha,
        safeMargin: this.settings.safety.margin,
        noiseSigma,
        allowance,
        risked: loss[chosenIndex],
        explorationAllowed,
        samples: this.armState(chosen.arm).pulls,
        features: Object.freeze(Object.fromEntries(FEATURE_NAMES.map((name, index) => [name, context[index]]))),
        arms: top.map(({ arm, candidate }, index) => ({ arm, candidateId: candidate.candidate.id, pulls: this.armState(arm).pulls, mean: estimates[index].mean, bonus: estimates[index].bonus, upper: estimates[index].upper, lower: lower[index], safe: safe[index] })),
      }),
    };
  }

  /** Judges a finished run and updates its arm, off the response path. */
  observeRun(result: RunResult): void {
    const decision = result.explain.learning;
    // A failed or rejected run teaches too (issue 16.3): no answer, so quality 0, less what it spent;
    // an unverified run answered, and its failed checks are the low reward the arm must learn.
    if (!decision || !JUDGED_ENDS.has(result.status)) return;
    // A call answered from the model-context cache spent $0: its penalty would reward the arm for the
    // cache, not the plan, and its answer repeats the one the miss that made the entry was judged on.
    if (servedFromModelCache(result)) return;
    this.queue.enqueue(async () => {
      await this.ready();
      const state = await this.store?.observationStateOf(result.runId);
      if (state?.decided) return;
      const context = FEATURE_NAMES.map((name) => decision.features[name] ?? 0);
      const coverage = result.verification?.checks.find((check) => check.name === 'citation_coverage')?.score ?? (result.answer ? Number(result.citations.length > 0) : 0);
      const quality = judgedQuality({ citationCoverage: coverage });
      const actual = result.explain.analyze?.totals.actual;
      const penalty = efficiencyPenalty({ costUsd: actual?.costUsd ?? 0, latencySeconds: actual?.latencySeconds ?? 0 }, this.settings.reward);
      // A vote may have arrived before this job ran: it counts from the start.
      const reward = blendedReward(quality, penalty, state?.feedback ?? { up: 0, down: 0 });
      const before = this.armState(decision.arm);
      const baseline = this.baseline();
      // The prediction this arm would have made for the run, before it learns the reward.
      this.noise.observe(reward - baseline - estimateArm(before, context, this.settings.alpha).mean);
      const centred = withSum(updateArm(before, context, reward - baseline), before.contextSum.map((value, index) => value + context[index]));
      // rewardSum keeps raw rewards (the arm's mean reward, and the baseline, read it).
      const after = { ...centred, rewardSum: before.rewardSum + reward };
      this.arms.set(decision.arm, after);
      await this.store?.saveObservation(BANDIT_POLICY, after, { runId: result.runId, policy: BANDIT_POLICY, arm: decision.arm, context, explored: decision.explored, judgedQuality: quality, penalty, reward });
    });
  }

  /** Records a vote now; the arm's reward for that run is corrected off-path. */
  async feedback(runId: string, user: string, thumb: Thumb): Promise<{ readonly up: number; readonly down: number }> {
    if (!this.store) throw new ContextRuntimeError('INVALID_CONFIG', 'feedback needs a database: this runtime was built without a bandit store');
    const tally = await this.store.recordFeedback(runId, user, thumb);
    this.queue.enqueue(async () => {
      await this.ready();
      const decision = await this.store!.decisionOf(runId);
      if (!decision || decision.policy !== BANDIT_POLICY) return;
      const reward = blendedReward(decision.judgedQuality, decision.penalty, await this.store!.feedbackOf(runId));
      if (reward === decision.reward) return;
      const before = this.armState(decision.arm);
      const after = withSum(correctReward(before, decision.context, reward - decision.reward), before.contextSum);
      this.arms.set(decision.arm, after);
      await this.store!.saveObservation(BANDIT_POLICY, after, { ...decision, reward });
    });
    return tally;
  }

  async armSummaries(): Promise<readonly ArmSummary[]> {
    await this.ready();
    const baseline = this.baseline();
    return [...this.arms.values()]
      .map((state) => {
        const context = state.pulls === 0 ? [1, ...new Array<number>(FEATURE_DIMENSION - 1).fill(0)] : state.contextSum.map((value) => value / state.pulls);
        const centred = estimateArm(state, context, this.settings.alpha);
        const estimate = { ...centred, mean: centred.mean + baseline, upper: centred.upper + baseline };
        const theta = state.inverse.length === 0 ? [] : FEATURE_NAMES.map((_, row) => state.b.reduce((sum, value, column) => sum + state.inverse[row * FEATURE_DIMENSION + column] * value, 0));
        return Object.freeze({
          arm: state.arm,
          pulls: state.pulls,
          meanReward: state.pulls === 0 ? null : state.rewardSum / state.pulls,
          estimate: { mean: estimate.mean, bonus: estimate.bonus, upper: estimate.upper },
          weights: Object.freeze(Object.fromEntries(FEATURE_NAMES.map((name, index) => [name, theta[index]]))),
        });
      })
      .sort((left, right) => right.pulls - left.pulls || (left.arm < right.arm ? -1 : 1));
  }

  drain(): Promise<void> {
    return this.queue.drain();
  }

  queueStatus() {
    return this.queue.status();
  }

  /** Decisions and explorations so far in this process (the exploration budget's counters). */
  explorationStatus() {
    return this.ledger.status();
  }
}

/** The config schema's defaults (config-schema.ts `learning`), for configs built by hand without that section. */
export const LEARNING_DEFAULTS = {
  enabled: true,
  alpha: 0.2,
  top_k_arms: 3,
  cost_penalty: 0.1,
  latency_penalty: 0.1,
  cost_scale_usd: 0.05,
  latency_scale_seconds: 10,
  safe_margin: 0.05,
  safe_window: 100,
  safe_confidence: 3,
  exploration_share: 0.1,
  exploration_per_hour: 60,
  learned_estimates: true,
} as const;

export type LearningConfig = { readonly [Key in keyof typeof LEARNING_DEFAULTS]: (typeof LEARNING_DEFAULTS)[Key] extends boolean ? boolean : number };

/** The `learning` section of the runtime config, in the learner's terms; missing safety keys take the defaults. */
export function learningSettingsOf(config: Omit<LearningConfig, 'safe_margin' | 'safe_window' | 'safe_confidence' | 'exploration_share' | 'exploration_per_hour' | 'learned_estimates'> & Partial<LearningConfig> = LEARNING_DEFAULTS): LearningSettings {
  return Object.freeze({
    enabled: config.enabled,
    alpha: config.alpha,
    topKArms: config.top_k_arms,
    learnedEstimates: config.learned_estimates ?? LEARNING_DEFAULTS.learned_estimates,
    reward: Object.freeze({ costPenalty: config.cost_penalty, latencyPenalty: config.latency_penalty, costScaleUsd: config.cost_scale_usd, latencyScaleSeconds: config.latency_scale_seconds }),
    safety: Object.freeze({
      margin: config.safe_margin ?? LEARNING_DEFAULTS.safe_margin,
      window: config.safe_window ?? LEARNING_DEFAULTS.safe_window,
      confidence: config.safe_confidence ?? LEARNING_DEFAULTS.safe_confidence,
      share: config.exploration_share ?? LEARNING_DEFAULTS.exploration_share,
      perHour: config.exploration_per_hour ?? LEARNING_DEFAULTS.exploration_per_hour,
    }),
  });
}

/** Any model call of the run answered from the model-context cache (EXPLAIN ANALYZE's per-call outcome). */
function servedFromModelCache(result: RunResult): boolean {
  return (result.explain.analyze?.nodes ?? []).some((node) => (node.modelCalls ?? []).some((call) => call.cache === 'hit'));
}
