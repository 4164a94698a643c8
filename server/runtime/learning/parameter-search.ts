/**
 * Offline tuning of the planner's global parameters (architecture §6: "Optuna (offline batch) —
 * global params and PlanScore weights"). No Optuna in Node, so a seeded (1+1) evolution strategy:
 * perturb the best point so far, keep the child when it scores strictly better. With ~30 trials
 * over 10 parameters it is what random search achieves at 3–5× the trials (Rechenberg's 1/5th
 * rule regime), and every trial is reproducible from the seed.
 */
import type { PlanScoreWeights } from '../types';
import { seededRandom } from './bandit-replay';

export interface TuningPoint {
  readonly weights: PlanScoreWeights;
  readonly topK: number;
  readonly finalK: number;
  readonly rerankDepth: number;
}

export const TOP_K_CHOICES: readonly number[] = Object.freeze([10, 20, 30, 50, 100]);
export const RERANK_DEPTH_CHOICES: readonly number[] = Object.freeze([10, 20, 30, 50, 100]);
export const FINAL_K_CHOICES: readonly number[] = Object.freeze([3, 4, 6, 8, 10, 12, 16]);
const WEIGHT_STEP = 0.6;
const MAX_WEIGHT = 5;
const RESTART_SHARE = 0.25;

export interface TrialRecord {
  readonly trial: number;
  readonly point: TuningPoint;
  readonly score: number;
  readonly kept: boolean;
}

function neighbour(choices: readonly number[], current: number, random: () => number): number {
  const index = Math.max(0, choices.indexOf(current));
  const next = index + (random() < 0.5 ? -1 : 1);
  return choices[Math.min(choices.length - 1, Math.max(0, next))];
}

/** Changes 1–3 things: a few weights by a log-normal factor (or a long jump), top-k, final-k or the rerank depth. */
export function perturb(point: TuningPoint, random: () => number): TuningPoint {
  const names = Object.keys(point.weights) as (keyof PlanScoreWeights)[];
  const weights: Record<string, number> = { ...point.weights };
  let { topK, finalK, rerankDepth } = point;
  const changes = 1 + Math.floor(random() * 3);
  for (let change = 0; change < changes; change++) {
    const roll = random();
    if (roll < 0.12) topK = neighbour(TOP_K_CHOICES, topK, random);
    else if (roll < 0.24) finalK = neighbour(FINAL_K_CHOICES, finalK, random);
    else if (roll < 0.36) rerankDepth = neighbour(RERANK_DEPTH_CHOICES, rerankDepth, random);
    else {
      const name = names[Math.floor(random() * names.length)];
      if (random() < RESTART_SHARE) {
        // A long jump: measured on SciFact and MuSiQue, ×e^±0.6 steps alone never changed a single
        // chosen plan (the cost model's recall priors dominate), so some trials must go far.
        weights[name] = 0.01 + random() * (MAX_WEIGHT - 0.01);
        continue;
      }
      // Box–Muller normal for a log-normal step; a zero weight restarts from a small one.
      const normal = Math.sqrt(-2 * Math.log(Math.max(random(), 1e-12))) * Math.cos(2 * Math.PI * random());
      weights[name] = Math.min(MAX_WEIGHT, Math.max(0.01, weights[name] || 0.05) * Math.exp(WEIGHT_STEP * normal));
    }
  }
  const rounded = Object.fromEntries(Object.entries(weights).map(([name, value]) => [name, Math.round(value * 1000) / 1000])) as unknown as PlanScoreWeights;
  return Object.freeze({ weights: Object.freeze(rounded), topK, finalK, rerankDepth });
}

export async function searchParameters(
  start: TuningPoint,
  evaluate: (point: TuningPoint) => Promise<number>,
  options: { readonly trials: number; readonly seed: number; readonly onTrial?: (record: TrialRecord) => void },
): Promise<{ readonly best: TuningPoint; readonly bestScore: number; readonly startScore: number; readonly history: readonly TrialRecord[] }> {
  const random = seededRandom(options.seed);
  const startScore = await evaluate(start);
  let best = start;
  let bestScore = startScore;
  const history: TrialRecord[] = [{ trial: 0, point: start, score: startScore, kept: true }];
  options.onTrial?.(history[0]);
  for (let trial = 1; trial <= options.trials; trial++) {
    const child = perturb(best, random);
    const score = await evaluate(child);
    const kept = score > bestScore;
    if (kept) {
      best = child;
      bestScore = score;
    }
    const record = { trial, point: child, score, kept };
    history.push(record);
    options.onTrial?.(record);
  }
  return { best, bestScore, startScore, history };
}
