/**
 * Calibration benchmark: does the learned estimator (learned-v2) quote honest intervals?
 *   npm run bench:calibration [-- --json FILE] [-- --train N (200)] [-- --held-out N (150)]
 *
 * Opens the real runtime on a fresh embedded PGlite (temp dir, demo corpus), runs varied goals
 * (30 templates from planner-goals.ts, shuffled, rotating constraint envelopes) through run(), and
 * splits the completed runs into a training stream and a held-out set drawn from the same period
 * (every 4th run is held out, so machine-load drift hits both alike). It then fits learned-v2 on
 * the first 10, 50 and 200 training runs only and prints, on the held-out runs, the coverage of
 * the p05–p95 interval (target 0.85–0.95) and its width (must shrink as samples grow), beside the
 * heuristic-v1 prior's own coverage. The first WARMUP_RUNS completed runs (cold JIT and caches) are excluded. Actuals are real: model tokens counted by the tokenizer,
 * wall-clock latency on this machine, cost from the tier's price ($0 for the local tier).
 */
import { writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { LEARNED_ESTIMATOR, ObservationLearner, type LearningObservation } from '../server/runtime/costmodel/observation-learner';
import { LOG_FLOORS } from '../server/runtime/costmodel/units';
import { isContextRuntimeError } from '../server/runtime/errors';
import type { EstimatedField } from '../server/runtime/types';
import { openRuntimeFixture } from '../server/testing/runtime-fixture';
import { generateGoals, seededRandom } from './planner-goals';

const SEED = 20_261_130;
const SAMPLE_SIZES = [10, 50, 200] as const;
const FIELDS = ['tokens', 'latencySeconds', 'costUsd'] as const satisfies readonly EstimatedField[];
const HELD_OUT_EVERY = 4;
/** First runs pay JIT compilation and cold PGlite caches (~2× slower): run, but neither learn from nor score them. */
const WARMUP_RUNS = 10;
const ENVELOPES = [{}, { require_verification: true }, { max_tokens: 2500 }, { require_citations: true }, { max_latency_seconds: 30 }] as const;

function argument(name: string): string | undefined {
  const index = process.argv.indexOf(name);
  return index >= 0 ? process.argv[index + 1] : undefined;
}

const round = (value: number, digits = 3) => Number(value.toFixed(digits));
const median = (values: readonly number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length === 0 ? 0 : sorted[Math.floor((sorted.length - 1) / 2)];
};
/** Interval width as a ratio high/low (log-space, floored like the learner): 4.0 = "within ×2 either way". */
const widthRatio = (field: EstimatedField, low: number, high: number) => (high + LOG_FLOORS[field]) / (low + LOG_FLOORS[field]);

interface FieldFigures {
  readonly coverage: number;
  readonly medianWidthRatio: number;
  readonly medianWidth: number;
  readonly method: Record<string, number>;
}

function evaluate(predict: (observation: LearningObservation) => { low: number; high: number; method?: string }, heldOut: readonly LearningObservation[], field: EstimatedField): FieldFigures {
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
  return { coverage: round(rows.length ? inside / rows.length : 0), medianWidthRatio: round(median(ratios)), medianWidth: round(median(widths), 6), method };
}

async function main(): Promise<void> {
  const trainCount = Number(argument('--train') ?? 200);
  const heldOutCount = Number(argument('--held-out') ?? 150);
  const jsonPath = argument('--json');
  const started = performance.now();
  const fixture = await openRuntimeFixture();
  const random = seededRandom(SEED);
  const goals = generateGoals((trainCount + heldOutCount) * 3, SEED).map((goal) => ({ ...goal, order: random() })).sort((a, b) => a.order - b.order);
  const training: string[] = [];
  const heldOut: string[] = [];
  const warmup: string[] = [];
  const skipped: Record<string, number> = {};
  try {
    console.log(`bench:calibration: demo corpus on embedded PGlite; ${cpus().length} CPUs, node ${process.version}`);
    for (const [index, { goal }] of goals.entries()) {
      if (training.length >= trainCount && heldOut.length >= heldOutCount) break;
      try {
        const result = await fixture.runtime.run({ goal, constraints: ENVELOPES[index % ENVELOPES.length] });
        if (result.status !== 'completed') {
          skipped[result.status] = (skipped[result.status] ?? 0) + 1;
          continue;
        }
        if (warmup.length < WARMUP_RUNS) {
          warmup.push(result.runId);
          continue;
        }
        const wantsHeldOut = (training.length + heldOut.length) % HELD_OUT_EVERY === HELD_OUT_EVERY - 1;
        if ((wantsHeldOut && heldOut.length < heldOutCount) || training.length >= trainCount) heldOut.push(result.runId);
        else training.push(result.runId);
      } catch (error) {
        if (!isContextRuntimeError(error)) throw error;
        skipped[error.code] = (skipped[error.code] ?? 0) + 1;
      }
      if (process.stderr.isTTY) process.stderr.write(`\r  runs: ${training.length} training, ${heldOut.length} held out`);
    }
    if (process.stderr.isTTY) process.stderr.write('\n');
    const observations = (await fixture.plugins.observationStore.all()) as readonly LearningObservation[];
    const byRun = (estimator: string, runIds: readonly string[]) => {
      const wanted = new Set(runIds);
      return observations.filter((observation) => observation.estimator === estimator && wanted.has(observation.runId));
    };
    const trainRows = byRun('heuristic-v1', training);
    const order = new Map(training.map((runId, index) => [runId, index]));
    const heldOutRows = byRun('heuristic-v1', heldOut);
    const report: Record<string, unknown> = {};
    const table: string[] = [];
    const verdicts: string[] = [];
    table.push(`held-out runs: ${heldOut.length}; training runs: ${training.length}; warm-up runs (not scored): ${warmup.length}; not completed (no actuals): ${JSON.stringify(skipped)}`);
    table.push('field           estimator            samples  coverage(p05–p95)  median width (high/low)  median width (units)');
    for (const field of FIELDS) {
      const prior = evaluate((observation) => observation, heldOutRows, field);
      table.push(`${field.padEnd(15)} heuristic-v1 prior   ${'-'.padStart(7)}  ${prior.coverage.toFixed(3).padStart(17)}  ${prior.medianWidthRatio.toFixed(2).padStart(23)}  ${String(prior.medianWidth).padStart(20)}`);
      const rows: Record<string, FieldFigures> = { prior };
      for (const samples of SAMPLE_SIZES) {
        const learner = ObservationLearner.from(trainRows.filter((observation) => (order.get(observation.runId) ?? Infinity) < samples));
        const figures = evaluate((observation) => {
          const learned = learner.predict(field, observation.intentClass, observation.shape, { value: observation.estimate, low: observation.low, high: observation.high });
          return { ...learned.estimate, method: learned.method };
        }, heldOutRows, field);
        rows[`learned-v2@${samples}`] = figures;
        table.push(`${field.padEnd(15)} ${LEARNED_ESTIMATOR.padEnd(20)} ${String(samples).padStart(7)}  ${figures.coverage.toFixed(3).padStart(17)}  ${figures.medianWidthRatio.toFixed(2).padStart(23)}  ${String(figures.medianWidth).padStart(20)}   ${JSON.stringify(figures.method)}`);
      }
      // learned-v2 as the runtime recorded it online (prequential: each held-out run quoted from all runs before it).
      rows.online = evaluate((observation) => observation, byRun(LEARNED_ESTIMATOR, heldOut), field);
      table.push(`${field.padEnd(15)} ${'learned-v2 online'.padEnd(20)} ${'all'.padStart(7)}  ${rows.online.coverage.toFixed(3).padStart(17)}  ${rows.online.medianWidthRatio.toFixed(2).padStart(23)}  ${String(rows.online.medianWidth).padStart(20)}`);
      report[field] = rows;
      const widths = SAMPLE_SIZES.map((samples) => rows[`learned-v2@${samples}`].medianWidth);
      const inTarget = SAMPLE_SIZES.filter((samples) => rows[`learned-v2@${samples}`].coverage >= 0.85 && rows[`learned-v2@${samples}`].coverage <= 0.95);
      verdicts.push(`${field}: coverage within 0.85–0.95 at ${inTarget.join(', ') || 'none'} of ${SAMPLE_SIZES.join('/')} samples; width ${widths[0] > widths[1] && widths[1] > widths[2] ? 'shrinks' : widths.every((width) => width === 0) ? 'is 0 throughout ($0 actuals)' : 'does NOT shrink'} (${widths.join(' → ')})`);
    }
    console.log(table.join('\n'));
    console.log(verdicts.join('\n'));
    console.log(`total ${((performance.now() - started) / 1000).toFixed(1)} s`);
    if (jsonPath) {
      writeFileSync(jsonPath, `${JSON.stringify({ seed: SEED, training: training.length, heldOut: heldOut.length, warmup: warmup.length, skipped, fields: report, verdicts, machine: { cpus: cpus().length, model: cpus()[0]?.model, node: process.version }, date: new Date().toISOString() }, null, 2)}\n`);
    }
  } finally {
    await fixture.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
