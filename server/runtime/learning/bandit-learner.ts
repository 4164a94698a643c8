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
import { type ArmEstimate, chooseArm, correctReward, estimateArm, freshArm, updateArm } from './lin-ucb';
import { topArms } from './plan-arms';
import { blendedReward, efficiencyPenalty, judgedQuality, type RewardSettings } from './run-reward';

/** Bump when the features change: state learned over another layout must not be reloaded. */
export const BANDIT_POLICY = `linucb-intent-v1-d${FEATURE_DIMENSION}`;

export interface LearningSettings {
  readonly enabled: boolean;
  readonly alpha: number;
  readonly topKArms: number;
  readonly reward: RewardSettings;
}

export interface BanditExplain {
  readonly policy: string;
  readonly arm: string;
  readonly candidateId: string;
  /** The estimate the choice was made on: mean θᵀx, bonus α√(xᵀA⁻¹x), upper = mean + bonus. */
  readonly estimate: { readonly mean: number; readonly bonus: number; readonly upper: number };
  /** True when another arm had the higher mean: this plan was played for what it might teach. */
  readonly explored: boolean;
  readonly greedyArm: string;
  /** What PlanScore alone would have chosen. */
  readonly optimizerCandidateId: string;
  readonly alpha: number;
  readonly features: Readonly<Record<string, number>>;
  readonly arms: readonly { readonly arm: string; readonly candidateId: string; readonly pulls: number; readonly mean: number; readonly bonus: number; readonly upper: number }[];
}

export interface ArmSummary {
  readonly arm: string;
  readonly pulls: number;
  readonly meanReward: number | null;
  /** Mean, bonus and upper bound at the arm's average context so far (the bias-only context before any pull). */
  readonly estimate: { readonly mean: number; readonly bonus: number; readonly upper: number };
  readonly weights: Readonly<Record<string, number>>;
}

const withSum = (state: ReturnType<typeof freshArm>, contextSum: readonly number[]): StoredArm => Object.freeze({ ...state, contextSum: Object.freeze([...contextSum]) });

export class BanditLearner {
  /** The policy id the arms and observations are stored under (the API reports it). */
  readonly policy = BANDIT_POLICY;
  private readonly arms = new Map<string, StoredArm>();
  private loading?: Promise<void>;
  private readonly queue: LearningQueue;

  constructor(
    private readonly store: BanditStorePort | undefined,
    readonly settings: LearningSettings,
    private readonly onError: (error: unknown) => void = (error) => console.warn('[learning] failed:', error),
  ) {
    this.queue = new LearningQueue(onError);
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
    return this.arms.get(arm) ?? withSum(freshArm(arm, FEATURE_DIMENSION), new Array<number>(FEATURE_DIMENSION).fill(0));
  }

  /** Chooses among the top feasible arms. Reads memory only; call `ready()` first. */
  decide(ranked: readonly ScoredCandidate[], intent: Intent): { candidate: ScoredCandidate; explain: BanditExplain } | undefined {
    const top = topArms(ranked, this.settings.topKArms);
    if (top.length === 0) return undefined;
    const context = intentFeatures(intent);
    const baseline = this.baseline();
    const estimates: ArmEstimate[] = top.map(({ arm }) => {
      const estimate = estimateArm(this.armState(arm), context, this.settings.alpha);
      return { ...estimate, mean: estimate.mean + baseline, upper: estimate.upper + baseline };
    });
    const { chosen, greedy, explored } = chooseArm(estimates);
    const picked = top.find(({ arm }) => arm === chosen.arm)!;
    return {
      candidate: picked.candidate,
      explain: Object.freeze({
        policy: BANDIT_POLICY,
        arm: chosen.arm,
        candidateId: picked.candidate.candidate.id,
        estimate: { mean: chosen.mean, bonus: chosen.bonus, upper: chosen.upper },
        explored,
        greedyArm: greedy.arm,
        optimizerCandidateId: top[0].candidate.candidate.id,
        alpha: this.settings.alpha,
        features: Object.freeze(Object.fromEntries(FEATURE_NAMES.map((name, index) => [name, context[index]]))),
        arms: top.map(({ arm, candidate }, index) => ({ arm, candidateId: candidate.candidate.id, pulls: this.armState(arm).pulls, mean: estimates[index].mean, bonus: estimates[index].bonus, upper: estimates[index].upper })),
      }),
    };
  }

  /** Judges a finished run and updates its arm, off the response path. */
  observeRun(result: RunResult): void {
    const decision = result.explain.learning;
    // An unverified run answered too: its failed checks are a low reward, which is what the arm must learn.
    if (!decision || (result.status !== 'completed' && result.status !== 'unverified')) return;
    this.queue.enqueue(async () => {
      await this.ready();
      if (this.store && (await this.store.decisionOf(result.runId))) return;
      const context = FEATURE_NAMES.map((name) => decision.features[name] ?? 0);
      const coverage = result.verification?.checks.find((check) => check.name === 'citation_coverage')?.score ?? (result.answer ? Number(result.citations.length > 0) : 0);
      const quality = judgedQuality({ citationCoverage: coverage });
      const actual = result.explain.analyze?.totals.actual;
      const penalty = efficiencyPenalty({ costUsd: actual?.costUsd ?? 0, latencySeconds: actual?.latencySeconds ?? 0 }, this.settings.reward);
      // A vote may have arrived before this job ran: it counts from the start.
      const reward = blendedReward(quality, penalty, (await this.store?.feedbackOf(result.runId)) ?? { up: 0, down: 0 });
      const before = this.armState(decision.arm);
      const centred = withSum(updateArm(before, context, reward - this.baseline()), before.contextSum.map((value, index) => value + context[index]));
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
}

/** The config schema's defaults, for configs built by hand without a `learning` section. */
const LEARNING_DEFAULTS = { enabled: false, alpha: 0.2, top_k_arms: 3, cost_penalty: 0.1, latency_penalty: 0.1, cost_scale_usd: 0.05, latency_scale_seconds: 10 } as const;

/** The `learning` section of the runtime config, in the learner's terms. */
export function learningSettingsOf(config: { readonly enabled: boolean; readonly alpha: number; readonly top_k_arms: number; readonly cost_penalty: number; readonly latency_penalty: number; readonly cost_scale_usd: number; readonly latency_scale_seconds: number } = LEARNING_DEFAULTS): LearningSettings {
  return Object.freeze({
    enabled: config.enabled,
    alpha: config.alpha,
    topKArms: config.top_k_arms,
    reward: Object.freeze({ costPenalty: config.cost_penalty, latencyPenalty: config.latency_penalty, costScaleUsd: config.cost_scale_usd, latencyScaleSeconds: config.latency_scale_seconds }),
  });
}
