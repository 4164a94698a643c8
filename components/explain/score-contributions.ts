/**
 * Splits a PlanScore into signed, weighted contributions (costmodel/plan-score.ts):
 *   total = (Σ w·benefit − Σ w·penalty) / Σ w
 * so each term contributes ±w·component/Σw, and the contributions add up to the total.
 */
import type { PlanScore, ScoreComponents } from '@/server/runtime/types';

export const SCORE_TERMS: readonly { readonly key: keyof ScoreComponents; readonly label: string; readonly benefit: boolean }[] = [
  { key: 'acc', label: 'accuracy', benefit: true },
  { key: 'cache', label: 'cache', benefit: true },
  { key: 'vrf', label: 'verification', benefit: true },
  { key: 'cost', label: 'cost', benefit: false },
  { key: 'lat', label: 'latency', benefit: false },
  { key: 'risk', label: 'risk', benefit: false },
  { key: 'hall', label: 'hallucination', benefit: false },
  { key: 'loss', label: 'context loss', benefit: false },
];

export interface Contribution {
  readonly key: keyof ScoreComponents;
  readonly label: string;
  /** Signed: positive for benefits, negative for penalties. */
  readonly value: number;
}

export function contributions(score: PlanScore): readonly Contribution[] {
  const weightSum = SCORE_TERMS.reduce((sum, term) => sum + score.weights[term.key], 0);
  if (weightSum <= 0) return SCORE_TERMS.map((term) => ({ key: term.key, label: term.label, value: 0 }));
  return SCORE_TERMS.map((term) => {
    const magnitude = (score.weights[term.key] * score.components[term.key]) / weightSum;
    return { key: term.key, label: term.label, value: term.benefit ? magnitude : -magnitude };
  });
}

/**
 * One scale for every candidate's bar, so bars compare across rows: the largest side (benefits or
 * penalties) of any candidate spans half the bar. Never zero, so an all-zero list draws empty bars.
 */
export function chartScale(scores: readonly PlanScore[]): number {
  let largest = 1e-9;
  for (const score of scores) {
    const parts = contributions(score);
    const benefits = parts.filter((part) => part.value > 0).reduce((sum, part) => sum + part.value, 0);
    const penalties = -parts.filter((part) => part.value < 0).reduce((sum, part) => sum + part.value, 0);
    largest = Math.max(largest, benefits, penalties);
  }
  return largest;
}
