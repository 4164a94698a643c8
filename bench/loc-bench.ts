/**
 * bench:loc — the glue-code benchmark of the architecture ("hand-rolled LangGraph ~420 LOC vs
 * Context Runtime ~38"): the incident review written twice (bench/loc/), measured in lines of
 * code and in wall time side by side on the same corpus and the same loopback model.
 *
 *   npm run bench:loc [-- --runs 50] [--json FILE] [--queries]
 *
 * Timing: both pipelines are opened once (not timed), each answers once as a warm-up (not timed),
 * then N runs of each alternate, the order flipping every round so neither side always runs on
 * the other's warm caches. A timed run is review(goal) until its result: for both, retrieval,
 * reranking, the budget, the HTTP call to the loopback model and the citation check; for the
 * runtime also what it does on every run — planning (or a plan-cache hit), the run and node
 * records, the spans, and the cost-model observation. `--queries` then runs 10 more of each, one
 * side at a time, and prints where each side's database time went, statement by statement.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { DEMO_QUESTION } from '../server/ingest/demo-corpus';
import { countCodeLines } from './loc/code-line-counter';
import { compareEvidence, openIncidentReviewBench } from './loc/incident-review-setup';
import { startQueryTimeProbe } from './loc/query-time-probe';

const PIPELINES = { handRolled: 'bench/loc/hand-rolled-pipeline.ts', contextRuntime: 'bench/loc/context-runtime-pipeline.ts' } as const;
const MAX_COST_USD = 0.05;
const PROBED_RUNS = 10;

function argument(name: string): string | undefined {
  const index = process.argv.indexOf(`--${name}`);
  return index === -1 ? undefined : process.argv[index + 1];
}

const runs = Number(argument('runs') ?? 50);
if (!Number.isInteger(runs) || runs < 1) throw new Error(`--runs must be a whole number ≥ 1, got ${argument('runs')}`);

const percentile = (sorted: readonly number[], share: number) => sorted[Math.min(sorted.length - 1, Math.ceil(share * sorted.length) - 1)];
function summary(times: readonly number[]) {
  const sorted = [...times].sort((left, right) => left - right);
  const total = times.reduce((sum, time) => sum + time, 0);
  return { totalMs: total, meanMs: total / times.length, p50Ms: percentile(sorted, 0.5), p95Ms: percentile(sorted, 0.95), maxMs: sorted.at(-1)! };
}
const ms = (value: number) => `${value.toFixed(1)} ms`;

const lines = Object.fromEntries(Object.entries(PIPELINES).map(([side, path]) => [side, { path, ...countCodeLines(readFileSync(path, 'utf8')) }]));
console.log(`bench:loc — incident review: "${DEMO_QUESTION}" (load average ${os.loadavg().map((load) => load.toFixed(1)).join(' ')})\n`);
console.log('Lines of code (non-blank, non-comment):');
console.log(`  hand-rolled (LangGraph)  ${String(lines.handRolled.code).padStart(4)}  ${lines.handRolled.path} (${lines.handRolled.total} lines: ${lines.handRolled.comment} comment, ${lines.handRolled.blank} blank)`);
console.log(`  Context Runtime          ${String(lines.contextRuntime.code).padStart(4)}  ${lines.contextRuntime.path} (${lines.contextRuntime.total} lines: ${lines.contextRuntime.comment} comment, ${lines.contextRuntime.blank} blank)\n`);

// Installed before the pipelines open: the runtime's database client binds PGlite's query at open
// (db/client.ts), so a probe installed later sees none of its statements. Idle until start().
const probe = process.argv.includes('--queries') ? startQueryTimeProbe() : undefined;
const bench = await openIncidentReviewBench();
try {
  const warmHand = await bench.handRolled.review(DEMO_QUESTION, MAX_COST_USD);
  const warmRuntime = await bench.contextRuntime.review(DEMO_QUESTION, MAX_COST_USD);
  const evidence = compareEvidence(warmHand, warmRuntime);
  console.log(`Cited evidence (status: hand-rolled ${warmHand.status}, runtime ${warmRuntime.status}):`);
  console.log(`  hand-rolled      ${evidence.handRolled.join(' | ')}`);
  console.log(`  Context Runtime  ${evidence.contextRuntime.join(' | ')}`);
  console.log(`  ${evidence.same ? 'same' : 'DIFFERENT'}: ${evidence.shared.length} shared of ${evidence.handRolled.length} / ${evidence.contextRuntime.length}\n`);

  const times = { handRolled: [] as number[], contextRuntime: [] as number[] };
  // CPU of this process while a side runs (the loopback model's share included, alike for both): wall time on a shared machine moves with its load, CPU much less.
  const cpu = { handRolled: 0, contextRuntime: 0 };
  let differing = 0;
  const timed = async <T>(side: keyof typeof times, review: () => Promise<T>): Promise<T> => {
    const started = performance.now();
    const cpuBefore = process.cpuUsage();
    const result = await review();
    const cpuSpent = process.cpuUsage(cpuBefore);
    times[side].push(performance.now() - started);
    cpu[side] += (cpuSpent.user + cpuSpent.system) / 1000;
    return result;
  };
  const callsBefore = bench.server.calls;
  for (let round = 0; round < runs; round += 1) {
    const hand = () => timed('handRolled', () => bench.handRolled.review(DEMO_QUESTION, MAX_COST_USD));
    const runtime = () => timed('contextRuntime', () => bench.contextRuntime.review(DEMO_QUESTION, MAX_COST_USD));
    const [handResult, runtimeResult] = round % 2 === 0 ? [await hand(), await runtime()] : await runtime().then(async (result) => [await hand(), result] as const);
    if (!compareEvidence(handResult, runtimeResult).same) differing += 1;
  }
  const figures = { handRolled: summary(times.handRolled), contextRuntime: summary(times.contextRuntime) };
  const ratio = figures.contextRuntime.totalMs / figures.handRolled.totalMs;
  console.log(`Wall time, ${runs} runs each, interleaved (${bench.server.calls - callsBefore} model calls; rounds with different evidence: ${differing}):`);
  for (const [side, label] of [['handRolled', 'hand-rolled    '], ['contextRuntime', 'Context Runtime']] as const) {
    const figure = figures[side];
    console.log(`  ${label}  total ${ms(figure.totalMs)} · mean ${ms(figure.meanMs)} · p50 ${ms(figure.p50Ms)} · p95 ${ms(figure.p95Ms)} · max ${ms(figure.maxMs)} · cpu ${ms(cpu[side] / runs)} a run`);
  }
  const cpuRatio = cpu.contextRuntime / cpu.handRolled;
  console.log(`  ratio runtime / hand-rolled: ${ratio.toFixed(2)}× (goal ≤ 1.1×) · cpu ${cpuRatio.toFixed(2)}× · load average at the end ${os.loadavg().map((load) => load.toFixed(1)).join(' ')}`);
  if (probe) {
    for (const [side, review] of [['hand-rolled', bench.handRolled.review], ['Context Runtime', bench.contextRuntime.review]] as const) {
      probe.start();
      const started = performance.now();
      for (let run = 0; run < PROBED_RUNS; run += 1) await review(DEMO_QUESTION, MAX_COST_USD);
      const perRun = (performance.now() - started) / PROBED_RUNS;
      const statements = probe.stop();
      const database = statements.reduce((sum, entry) => sum + entry.ms, 0) / PROBED_RUNS;
      const perRunStatements = statements.reduce((sum, entry) => sum + entry.calls, 0) / PROBED_RUNS;
      // Statements queued behind one another (parallel retrieve nodes) each count their wait: the sum may pass the run's time.
      console.log(`\nDatabase time per run, ${side} (${PROBED_RUNS} runs, ${ms(perRun)} a run, ${perRunStatements} statements and ${ms(database)} in them):`);
      for (const entry of statements.slice(0, 12)) {
        const figures = `${ms(entry.ms / PROBED_RUNS).padStart(9)} ${String(entry.calls / PROBED_RUNS).padStart(4)}× ${String(Math.round(entry.parameterBytes / PROBED_RUNS)).padStart(7)} B bound`;
        console.log(`  ${figures}  ${entry.statement.slice(0, 90)}`);
      }
    }
  }
  const json = argument('json');
  if (json) writeFileSync(json, `${JSON.stringify({ question: DEMO_QUESTION, runs, lines, evidence, differingRounds: differing, figures, ratio, cpuMsPerRun: { handRolled: cpu.handRolled / runs, contextRuntime: cpu.contextRuntime / runs }, cpuRatio }, null, 2)}\n`);
} finally {
  await bench.close();
}
