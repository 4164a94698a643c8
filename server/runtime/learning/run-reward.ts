/**
 * Reward = judged quality − efficiency penalty (architecture §6, "River (online contextual
 * bandit)"). Judges, each in [0,1], averaged over those present: citation coverage of the answer,
 * answer-in-context on labelled sets, and people's thumbs (share of ups). The penalty charges cost
 * and latency against scales, capped so a single slow run cannot swamp every quality signal.
 */

export interface RewardSettings {
  readonly costPenalty: number;
  readonly latencyPenalty: number;
  readonly costScaleUsd: number;
  readonly latencyScaleSeconds: number;
}

export interface Judgement {
  readonly citationCoverage?: number;
  readonly answerInContext?: boolean;
}

export interface Efficiency {
  readonly costUsd: number;
  readonly latencySeconds: number;
}

/** Mean of the judges that spoke; 0 when none did (an unjudged run teaches "no evidence of quality"). */
export function judgedQuality(judgement: Judgement): number {
  const scores: number[] = [];
  if (judgement.citationCoverage !== undefined && Number.isFinite(judgement.citationCoverage)) scores.push(Math.min(1, Math.max(0, judgement.citationCoverage)));
  if (judgement.answerInContext !== undefined) scores.push(judgement.answerInContext ? 1 : 0);
  return scores.length === 0 ? 0 : scores.reduce((sum, score) => sum + score, 0) / scores.length;
}

export function efficiencyPenalty(efficiency: Efficiency, settings: RewardSettings): number {
  const cost = Math.min(1, Math.max(0, efficiency.costUsd) / settings.costScaleUsd);
  const latency = Math.min(1, Math.max(0, efficiency.latencySeconds) / settings.latencyScaleSeconds);
  return settings.costPenalty * cost + settings.latencyPenalty * latency;
}

/**
 * A person's vote outranks the automatic judges on that run: with votes present they carry half
 * the quality term, however many automatic judges spoke (one vote is sparse but direct evidence).
 */
export function blendedReward(quality: number, penalty: number, votes: { readonly up: number; readonly down: number }): number {
  const total = votes.up + votes.down;
  const blended = total === 0 ? quality : 0.5 * quality + 0.5 * (votes.up / total);
  return blended - penalty;
}
