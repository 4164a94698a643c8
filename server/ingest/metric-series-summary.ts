/**
 * Describes one metric series in a few sentences: range, last value, trend and the samples where it
 * crossed something notable. A model reads "p95 crossed the 500 ms threshold at 09:34 and kept rising"
 * far more reliably than it infers it from eighty raw rows, and the summary stays one chunk however
 * long the series is.
 */

export interface MetricSample {
  /** 1-based data row (the header is row 0). */
  readonly row: number;
  readonly timestamp: string;
  readonly value: number;
  readonly threshold?: number;
}

export interface SeriesSummary {
  readonly text: string;
  /** How often it was sampled and what its unit means, in words ("hourly, a percentage"); empty when neither is known. */
  readonly description: string;
  readonly min: number;
  readonly max: number;
  readonly last: number;
  readonly trend: 'rising' | 'falling' | 'flat';
  readonly changePercent: number;
}

/** Nearing a limit matters before it is crossed: an OOM kill happens at the limit, so no sample ever exceeds it. */
const NEAR_THRESHOLD_FRACTION = 0.9;
/** Relative change between the first and last third below which a series is called flat. */
const FLAT_BAND = 0.1;
/** A fall of more than this from one sample to the next reads as a reset (restart, counter wrap). */
const SHARP_DROP_FRACTION = 0.4;
/** Fraction of the series maximum a value must reach before a fall from it counts as a drop. */
const SIGNIFICANT_LEVEL = 0.25;

export const formatNumber = (value: number): string => (Number.isInteger(value) ? String(value) : String(Number(value.toFixed(2))));

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((left, right) => left - right);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/**
 * A unit in the words a question uses: "how high did the static-ETA percentage go?", "how many
 * hours old was the model?" find a series whose unit column says only "%" or "h".
 */
const UNIT_WORDS: Readonly<Record<string, string>> = { '%': 'a percentage', h: 'hours', min: 'minutes', s: 'seconds', ms: 'milliseconds', d: 'days' };

/** Regular sampling intervals by name, in seconds: questions say "the hourly figure", "per minute". */
const CADENCE_NAMES: ReadonlyArray<readonly [number, string]> = [
  [60, 'one-minute'],
  [300, 'five-minute'],
  [900, 'fifteen-minute'],
  [3600, 'hourly'],
  [86400, 'daily'],
];

/** "hourly" when every gap between samples is one hour; nothing for an irregular series. */
function cadenceOf(samples: readonly MetricSample[]): string | undefined {
  const times = samples.map((sample) => Date.parse(sample.timestamp));
  if (times.length < 3 || times.some((time) => !Number.isFinite(time))) return undefined;
  const gaps = new Set(times.slice(1).map((time, index) => (time - times[index]) / 1000));
  if (gaps.size !== 1) return undefined;
  const [gap] = gaps;
  return CADENCE_NAMES.find(([seconds]) => seconds === gap)?.[1];
}

const at = (sample: MetricSample, unit: string) => `${formatNumber(sample.value)}${unit} at ${sample.timestamp} (row ${sample.row})`;

function thresholdSentences(samples: readonly MetricSample[], unit: string): string[] {
  const withThreshold = samples.filter((sample) => sample.threshold !== undefined && sample.threshold > 0);
  if (withThreshold.length === 0) return [];
  const thresholds = [...new Set(withThreshold.map((sample) => sample.threshold!))];
  const label = thresholds.map((threshold) => `${formatNumber(threshold)}${unit}`).join(', then ');
  const above = withThreshold.filter((sample) => sample.value > sample.threshold!);
  const near = withThreshold.filter((sample) => sample.value >= sample.threshold! * NEAR_THRESHOLD_FRACTION);
  const peak = withThreshold.reduce((best, sample) => (sample.value / sample.threshold! > best.value / best.threshold! ? sample : best));
  const sentences = [`Threshold ${label}; peak ${at(peak, unit)} = ${formatNumber((100 * peak.value) / peak.threshold!)}% of threshold.`];
  // The threshold again where it is first passed: "when did it first go past the threshold, and what is it?" is answered by one sentence (fresh f198).
  if (above.length > 0) sentences.push(`Above the threshold of ${label} in ${above.length} of ${withThreshold.length} samples, first ${at(above[0], unit)}.`);
  else sentences.push('Never above threshold.');
  if (near.length > above.length) sentences.push(`At or above ${NEAR_THRESHOLD_FRACTION * 100}% of threshold in ${near.length} samples, first ${at(near[0], unit)}.`);
  return sentences;
}

function baselineSentences(samples: readonly MetricSample[], unit: string): string[] {
  const baseline = median(samples.slice(0, Math.max(1, Math.floor(samples.length / 4))).map((sample) => sample.value));
  if (baseline === 0) {
    const nonZero = samples.filter((sample) => sample.value !== 0);
    return nonZero.length === 0 ? ['Zero throughout.'] : [`Baseline 0; first non-zero ${at(nonZero[0], unit)}; ${nonZero.length} non-zero samples.`];
  }
  const doubled = samples.filter((sample) => Math.abs(sample.value) >= 2 * Math.abs(baseline));
  if (doubled.length === 0) return [`Baseline ${formatNumber(baseline)}${unit}; never reached twice the baseline.`];
  return [`Baseline ${formatNumber(baseline)}${unit}; at twice the baseline or more in ${doubled.length} samples, first ${at(doubled[0], unit)}.`];
}

export function summarizeSeries(label: string, unit: string, samples: readonly MetricSample[]): SeriesSummary {
  const suffix = !unit || unit === 'count' ? '' : unit === '%' ? '%' : ` ${unit}`;
  const first = samples[0];
  const last = samples[samples.length - 1];
  const min = samples.reduce((best, sample) => (sample.value < best.value ? sample : best));
  const max = samples.reduce((best, sample) => (sample.value > best.value ? sample : best));
  // Medians of the first and last thirds, so one restart dip or spike does not flip the trend.
  const third = Math.max(1, Math.floor(samples.length / 3));
  const head = median(samples.slice(0, third).map((sample) => sample.value));
  const tail = median(samples.slice(-third).map((sample) => sample.value));
  const changePercent = head === 0 ? (tail === 0 ? 0 : 100) : (100 * (tail - head)) / Math.abs(head);
  const trend = Math.abs(changePercent) < FLAT_BAND * 100 ? 'flat' : changePercent > 0 ? 'rising' : 'falling';
  // Only falls from a meaningful level count: 0.02% → 0.01% halves but says nothing.
  const drops = samples
    .slice(1)
    .filter((sample, index) => samples[index].value >= max.value * SIGNIFICANT_LEVEL && sample.value < samples[index].value * (1 - SHARP_DROP_FRACTION));
  const cadence = cadenceOf(samples);
  const sentences = [
    `Metric series ${label}${unit ? ` (${[unit, UNIT_WORDS[unit]].filter(Boolean).join(', ')})` : ''}: ${samples.length}${cadence ? ` ${cadence}` : ''} samples from ${first.timestamp} to ${last.timestamp}.`,
    // In the words a question uses ("What was the highest reading?"): the summary is found by them.
    `Lowest ${at(min, suffix)}; highest ${at(max, suffix)}; last ${at(last, suffix)}.`,
    `Trend ${trend}: median of first third ${formatNumber(head)}${suffix}, of last third ${formatNumber(tail)}${suffix} (${changePercent >= 0 ? '+' : ''}${formatNumber(changePercent)}%).`,
    ...(samples.some((sample) => sample.threshold !== undefined) ? thresholdSentences(samples, suffix) : baselineSentences(samples, suffix)),
    ...(drops.length > 0 ? [`Sharp drops (over ${SHARP_DROP_FRACTION * 100}% below the previous sample): ${drops.length}, first ${at(drops[0], suffix)}.`] : []),
  ];
  const description = [cadence, UNIT_WORDS[unit]].filter(Boolean).join(', ');
  return Object.freeze({ text: sentences.join(' '), description, min: min.value, max: max.value, last: last.value, trend, changePercent });
}
