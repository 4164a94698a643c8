/**
 * Formatting and scales for the calibration dashboard. Pure, so the chart geometry is testable
 * without a browser. Locale is pinned so server and client render the same text.
 */
import { formatSeconds, formatTokens, formatUsd } from '@/components/explain/format';
import { CONFORMAL_MIN_SAMPLES } from '@/server/runtime/costmodel/units';

export const FIELD_LABELS: Readonly<Record<string, string>> = {
  tokens: 'tokens',
  costUsd: 'cost',
  latencySeconds: 'latency',
  accuracy: 'accuracy (verified/cited)',
  risk: 'risk (verification failed)',
  hallucination: 'hallucination (1 − groundedness)',
  contextLoss: 'context loss',
  cacheHit: 'plan-cache hit',
  verificationConfidence: 'verification confidence',
};

/** A field's value in its unit: tokens, USD, seconds; probabilities as plain fractions. */
export function formatFieldValue(field: string, value: number): string {
  if (field === 'tokens') return formatTokens(value);
  if (field === 'costUsd') return formatUsd(value);
  if (field === 'latencySeconds') return formatSeconds(value);
  return value.toFixed(3);
}

/**
 * Runs a cell needs before its coverage means anything: the learned estimator's own threshold for
 * a conformal interval (costmodel/units.ts). Below it one run moves coverage by 5 points or more;
 * after two runs it reads 0.00, 0.50 or 1.00, which said "badly calibrated" in red about noise.
 */
export const MIN_COVERAGE_SAMPLES = CONFORMAL_MIN_SAMPLES;

export type CoverageTone = 'good' | 'warn' | 'bad' | 'few' | 'none';

/** p05–p95 coverage against its 0.90 target: within 0.85–0.95 is calibrated; judged only on enough runs. */
export function coverageTone(coverage: number, count: number): CoverageTone {
  if (count === 0) return 'none';
  if (count < MIN_COVERAGE_SAMPLES) return 'few';
  if (coverage >= 0.85 && coverage <= 0.95) return 'good';
  if (coverage >= 0.7) return 'warn';
  return 'bad';
}

export interface CoverageCell {
  readonly text: string;
  readonly tone: CoverageTone;
  /** The longer explanation (hover title). */
  readonly title: string;
}

/** What a coverage cell shows: the figure once there are enough runs, else how many there are. */
export function coverageCell(coverage: number, count: number): CoverageCell {
  const tone = coverageTone(coverage, count);
  if (tone === 'none') return { text: '—', tone, title: 'no runs yet' };
  if (tone === 'few') return { text: `too few samples (n = ${count})`, tone, title: `${count} of the ${MIN_COVERAGE_SAMPLES} runs a coverage figure needs` };
  return { text: coverage.toFixed(2), tone, title: `${Math.round(coverage * count)} of ${count} actuals inside their p05–p95 interval` };
}

export interface LogScale {
  readonly min: number;
  readonly max: number;
  /** Position in [0, 1] of a value (values ≤ 0 sit at the floor). */
  position(value: number): number;
  /** Powers of ten inside the range, for tick marks. */
  ticks(): readonly number[];
}

/** A log10 scale over positive values with a floor for zeros (a $0 cost still gets a dot). */
export function logScale(values: readonly number[], floor: number): LogScale {
  const positive = values.map((value) => Math.max(value, floor));
  let min = Math.min(...positive, Number.POSITIVE_INFINITY);
  let max = Math.max(...positive, Number.NEGATIVE_INFINITY);
  if (!Number.isFinite(min)) [min, max] = [floor, floor * 10];
  if (max / min < 10) [min, max] = [min / Math.sqrt(10 / (max / min)), max * Math.sqrt(10 / (max / min))];
  const low = Math.log10(min);
  const span = Math.log10(max) - low;
  return {
    min,
    max,
    position: (value) => (Math.log10(Math.max(value, floor)) - low) / span,
    ticks: () => {
      // Decades; within a range spanning under two of them, also 2× and 5× marks so the axis has labels.
      const multiples = span < 2 ? [1, 2, 5] : [1];
      const ticks: number[] = [];
      for (let exponent = Math.floor(low); exponent <= Math.ceil(Math.log10(max)); exponent++) {
        for (const multiple of multiples) {
          const tick = multiple * 10 ** exponent;
          if (tick >= min * (1 - 1e-9) && tick <= max * (1 + 1e-9)) ticks.push(tick);
        }
      }
      return ticks;
    },
  };
}

/** Floors for the scatter's log axes: below these a value is shown at the floor. */
export const SCATTER_FLOORS: Readonly<Record<string, number>> = { tokens: 1, costUsd: 1e-6, latencySeconds: 0.001 };
