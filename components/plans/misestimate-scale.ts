/**
 * Words and colours for an estimate-vs-actual gap. Thresholds are pgAdmin's explain.depesz.com
 * ones (10×, 100×, 1000×), shared with the console tables through components/explain/format.ts.
 */
import type { Misestimate } from '@/server/runtime/explain/explain-types';
import { misestimateRatio, misestimateSeverity } from '@/components/explain/format';

export type Severity = ReturnType<typeof misestimateSeverity>;

export const SEVERITY_LABELS: Readonly<Record<Severity, string>> = {
  fine: 'within 10×',
  x10: '≥ 10× off',
  x100: '≥ 100× off',
  x1000: '≥ 1000× off',
};

export interface MisestimateReading {
  readonly severity: Severity;
  readonly className: string;
  /** e.g. "under-estimated 12×": the actual was 12 times the estimate. */
  readonly text: string;
}

export function readMisestimate(misestimate: Misestimate | undefined): MisestimateReading | undefined {
  if (!misestimate) return undefined;
  const severity = misestimateSeverity(misestimate.factor);
  const ratio = misestimateRatio(misestimate.factor);
  const times = Number.isFinite(ratio) ? `${ratio.toFixed(ratio < 10 ? 1 : 0)}×` : '∞×';
  const text = misestimate.direction === 'exact' ? 'as estimated' : `${misestimate.direction === 'under' ? 'under' : 'over'}-estimated ${times}`;
  return { severity, className: `misestimate-${severity}`, text };
}
