/**
 * One tier's calibration measurement: varied goals run through the real runtime, the completed runs
 * split into a training stream and a held-out set from the same period (holdsOut: spread evenly, so
 * machine-load drift and the runtime's own learning hit both alike), learned-v2 fitted on the first 10, 50 and 200
 * training runs only and scored on the held-out runs: p05–p95 coverage and width per field.
 */
import { LEARNED_ESTIMATOR, ObservationLearner, type LearningObservation } from '../../server/runtime/costmodel/observation-learner';
import { LOG_FLOORS } from '../../server/runtime/costmodel/units';
import { ANSWERED_STATUSES } from '../../server/runtime/contracts/run-store';
import { isContextRuntimeError } from '../../server/runtime/errors';
import type { EstimatedField } from '../../server/runtime/types';
import { openRuntimeFixture, type RuntimeFixtureOptions } from '../../server/testing/runtime-fixture';
import { generateGoals, seededRandom } from '../planner-goals';

export const SAMPLE_SIZES = [10, 50, 200] as const;
const FIELDS = ['tokens', 'latencySeconds', 'costUsd'] as const satisfies readonly EstimatedField[];
/** First runs pay JIT compilation and cold PGlite caches (~2× slower): run, but neither learn from nor score them. */
const WARMUP_RUNS = 10;
const ENVELOPES = [{}, { require_verification: true }, { max_tokens: 2500 }, { require_citations: true }, { max_latency_seconds: 30 }] as const;

export interface TierPlan {
  readonly label: string;
  readonly fixture: RuntimeFixtureOptions;
  readonly trainCount: number;
  readonly heldOutCount: number;
  readonly seed: number;
}

export interface FieldFigures {
  /** Held-out runs that observed this field (a run the model-context cache served observes no spend). */
  readonly count: number;
  /** Held-out runs whose actual is exactly 0 (cost on a free tier): coverage of those is no measurement. */
  readonly zeroActuals: number;
  readonly coverage: number;
  readonly medianWidthRatio: number;
  readonly medianWidth: number;
  readonly method: Record<string, number>;
}

export interface TierResult {
  readonly label: string;
  readonly lines: readonly string[];
  readonly verdicts: readonly string[];
  readonly report: Record<string, unknown>;
}

const round = (value: number, digits = 3) => Number(value.toFixed(digits));
const median = (values: readonly number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length === 0 ? 0 : sorted[Math.floor((sorted.length - 1) / 2)];
};
/** Interval width as a ratio high/low (log-space, floored like the learner): 4.0 = "within ×2 either way". */
const widthRatio = (field: EstimatedField, low: number, high: number) => (high + LOG_FLOORS[field]) / (low + LOG_FLOORS[field]);

export function evaluate(predict: (observation: LearningObservation) => { low: number; high: number; method?: string }, heldOut: readonly LearningObservation[], field: EstimatedField): FieldFigures {
  const rows = heldOut.filter((observation) => observation.field === field);
  let inside = 0;
  const ratios: number[] = [];
  const widths: number[] = [];
  const method: Record<string, number> = {};
  for (const observation of rows) {
    const interval = predict(observation);
    if (observation.actual >= interval.low && observation.actual <= interval.high) inside++;
    ratios.push(widthRatio(field, interval.low, interval.high));
    widths.push(interval.high - interval.low);
    if (interval.method) method[interval.method] = (method[interval.method] ?? 0) + 1;
  }
  return { count: rows.length, zeroActuals: rows.filter((observation) => observation.actual === 0).length, coverage: round(rows.length ? inside / rows.length : 0), medianWidthRatio: round(median(ratios)), medianWidth: round(median(widths), 6), method };
}

/** What one tier's runs left behind: enough to score again without running them (--save-runs, --from-runs). */
export interface RecordedTier {
  readonly label: string;
  readonly observations: readonly LearningObservation[];
  readonly training: readonly string[];
  readonly heldOut: readonly string[];
  readonly warmup: readonly string[];
  readonly skipped: Record<string, number>;
  readonly answered: Record<string, number>;
}

/**
 * Whether the index-th scored run is held out: held-out runs are spread evenly over the whole stream
 * (heldOut of every train + heldOut runs), so both sets end together and come from the same period.
 * Holding out every 4th run until the training set was full left the last 84 of 150 held-out runs
 * after every training run; the runtime's own learning narrows its runs' spread over time, so those
 * late runs were easier than the training runs and every interval over-covered them (issue 16).
 */
export function holdsOut(index: number, trainCount: number, heldOutCount: number): boolean {
  const total = trainCount + heldOutCount;
  return Math.floor(((index + 1) * heldOutCount) / total) > Math.floor((index * heldOutCount) / total);
}

export async function recordTier(plan: TierPlan): Promise<RecordedTier> {
  const fixture = await openRuntimeFixture(plan.fixture);
  const random = seededRandom(plan.seed);
  const goals = generateGoals((plan.trainCount + plan.heldOutCount) * 3, plan.seed).map((goal) => ({ ...goal, order: random() })).sort((a, b) => a.order - b.order);
  const training: string[] = [];
  const heldOut: string[] = [];
  const warmup: string[] = [];
  const skipped: Record<string, number> = {};
  const answered: Record<string, number> = {};
  try {
    for (const [index, { goal }] of goals.entries()) {
      if (training.length >= plan.trainCount && heldOut.length >= plan.heldOutCount) break;
      try {
        const result = await fixture.runtime.run({ goal, constraints: ENVELOPES[index % ENVELOPES.length] });
        // An unverified run answered and spent like a completed one (its retry attempt too): the
        // runtime learns from both, so both are scored. Other ends have no answer to compare.
        if (!ANSWERED_STATUSES.includes(result.status)) {
          skipped[result.status] = (skipped[result.status] ?? 0) + 1;
          continue;
        }
        answered[result.status] = (answered[result.status] ?? 0) + 1;
        if (warmup.length < WARMUP_RUNS) {
          warmup.push(result.runId);
          continue;
        }
        if (holdsOut(training.length + heldOut.length, plan.trainCount, plan.heldOutCount)) heldOut.push(result.runId);
        else training.push(result.runId);
      } catch (error) {
        if (!isContextRuntimeError(error)) throw error;
        skipped[error.code] = (skipped[error.code] ?? 0) + 1;
      }
      if (process.stderr.isTTY) process.stderr.write(`\r  ${plan.label} runs: ${training.length} training, ${heldOut.length} held out`);
    }
    if (process.stderr.isTTY) process.stderr.write('\n');
    const observations = (await fixture.plugins.observationStore.all()) as readonly LearningObservation[];
    return { label: plan.label, observations, training, heldOut, warmup, skipped, answered };
  } finally {
    await fixture.close();
  }
}

export function scoreTier(runs: RecordedTier): TierResult {
  const { label, observations } = runs;
  const byRun = (estimator: string, runIds: readonly string[]) => {
    const wanted = new Set(runIds);
    return observations.filter((observation) => observation.estimator === estimator && wanted.has(observation.runId));
  };
  const trainRows = byRun('heuristic-v1', runs.training);
  const order = new Map(runs.training.map((runId, index) => [runId, index]));
  const heldOutRows = byRun('heuristic-v1', runs.heldOut);
  const report: Record<string, unknown> = { training: runs.training.length, heldOut: runs.heldOut.length, warmup: runs.warmup.length, answered: runs.answered, skipped: runs.skipped };
  const lines = [
    `tier ${label} — held-out runs: ${runs.heldOut.length}; training runs: ${runs.training.length}; warm-up runs (not scored): ${runs.warmup.length}; answered (scored ends): ${JSON.stringify(runs.answered)}; not answered (not scored): ${JSON.stringify(runs.skipped)}`,
    'field           estimator            samples  coverage(p05–p95)  median width (high/low)  median width (units)',
  ];
  const verdicts: string[] = [];
  for (const field of FIELDS) {
    const prior = evaluate((observation) => observation, heldOutRows, field);
    lines.push(`${field.padEnd(15)} heuristic-v1 prior   ${'-'.padStart(7)}  ${prior.coverage.toFixed(3).padStart(17)}  ${prior.medianWidthRatio.toFixed(2).padStart(23)}  ${String(prior.medianWidth).padStart(20)}   held-out runs with this field: ${prior.count}${prior.zeroActuals ? `, ${prior.zeroActuals} with actual 0` : ''}`);
    const rows: Record<string, FieldFigures> = { prior };
    for (const samples of SAMPLE_SIZES) {
      const learner = ObservationLearner.from(trainRows.filter((observation) => (order.get(observation.runId) ?? Infinity) < samples));
      const figures = evaluate((observation) => {
        // With the run's request features, as the runtime quotes it: the conformal scores are taken around the regression line.
        const learned = learner.predict(field, observation.intentClass, observation.shape, { value: observation.estimate, low: observation.low, high: observation.high }, observation.features);
        return { ...learned.estimate, method: learned.method };
      }, heldOutRows, field);
      rows[`learned-v2@${samples}`] = figures;
      lines.push(`${field.padEnd(15)} ${LEARNED_ESTIMATOR.padEnd(20)} ${String(samples).padStart(7)}  ${figures.coverage.toFixed(3).padStart(17)}  ${figures.medianWidthRatio.toFixed(2).padStart(23)}  ${String(figures.medianWidth).padStart(20)}   ${JSON.stringify(figures.method)}`);
    }
    // learned-v2 as the runtime recorded it online (prequential: each held-out run quoted from all runs before it).
    rows.online = evaluate((observation) => observation, byRun(LEARNED_ESTIMATOR, runs.heldOut), field);
    lines.push(`${field.padEnd(15)} ${'learned-v2 online'.padEnd(20)} ${'all'.padStart(7)}  ${rows.online.coverage.toFixed(3).padStart(17)}  ${rows.online.medianWidthRatio.toFixed(2).padStart(23)}  ${String(rows.online.medianWidth).padStart(20)}`);
    report[field] = rows;
    const widths = SAMPLE_SIZES.map((samples) => rows[`learned-v2@${samples}`].medianWidth);
    const inTarget = SAMPLE_SIZES.filter((samples) => rows[`learned-v2@${samples}`].coverage >= 0.85 && rows[`learned-v2@${samples}`].coverage <= 0.95);
    // A field every held-out run spent 0 of (cost on a free tier) is covered by a zero-width interval: no measurement.
    if (prior.count > 0 && prior.zeroActuals === prior.count) verdicts.push(`${label} ${field}: not measured — every held-out actual is 0 (a free tier), so coverage 1.000 at width 0 says nothing`);
    else verdicts.push(`${label} ${field}: coverage within 0.85–0.95 at ${inTarget.join(', ') || 'none'} of ${SAMPLE_SIZES.join('/')} samples (${SAMPLE_SIZES.map((samples) => rows[`learned-v2@${samples}`].coverage.toFixed(3)).join(' / ')} on ${prior.count} held-out runs); width ${widths.every((width) => width > 0) ? 'non-zero' : 'ZERO somewhere'} and ${widths[0] > widths[1] && widths[1] > widths[2] ? 'shrinks' : 'does NOT shrink'} (${widths.join(' → ')})`);
  }
  return { label, lines, verdicts, report };
}
