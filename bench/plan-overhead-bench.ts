/**
 * plan() overhead on a warm runtime (issue 16 point 5), over the real runtime (embedded PGlite,
 * demo incident corpus, the plancache bench's request stream):
 *   npm run bench:plan-overhead [-- --requests N] [-- --json FILE]
 * Prints the end-to-end `runtime.plan()` p50/p95 with the plan cache off (every request planned
 * cold: the uncached figure, target p50 <= 2 ms) and with it on (misses and hits apart), each
 * with plan()'s stage timings (PlannedRequest.timings) side by side, and the work plan() leaves
 * behind it (plan-cache row write, near-miss diagnosis), flushed after each call off the record and
 * timed apart. Then the same runtime answers `--trained-runs` goals (default 100) with runtime.run, so
 * learned-v2 has observations to correct the estimates with, and the uncached stream is planned
 * again: the figure for a runtime that has been answering (every candidate's estimate corrected).
 * While it answers, one uncached plan() follows each run once its observations are learned: the
 * figure for a server with traffic, whose plans come between runs.
 * The planner path's overhead over the retriever it chose is measured by bench:retrieval (its
 * "planner path" line).
 */
import { writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { ContextRuntime } from '../server/runtime';
import type { RuntimeConfig } from '../server/runtime/config/config-schema';
import { openRuntimeFixture } from '../server/testing/runtime-fixture';
import { generateRequests, type BenchRequest } from './plancache-goals';
import { youngGenerationNote } from './young-generation';

const SEED = 20_261_201;
const WARM_UP = 40;

const argument = (name: string): string | undefined => {
  const index = process.argv.indexOf(name);
  return index >= 0 ? process.argv[index + 1] : undefined;
};
const percentile = (values: readonly number[], p: number): number => {
  const sorted = [...values].sort((left, right) => left - right);
  return sorted.length === 0 ? Number.NaN : sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
};
const round = (value: number): number => Number(value.toFixed(3));

/** Totals and per-stage timings of one set of plan() calls. */
class Timings {
  readonly totals: number[] = [];
  readonly cpu: number[] = [];
  readonly stages = new Map<string, number[]>();

  add(totalMs: number, cpuMs: number, stages: Readonly<Record<string, number>>): void {
    this.totals.push(totalMs);
    this.cpu.push(cpuMs);
    for (const [name, ms] of Object.entries(stages)) {
      const values = this.stages.get(name);
      if (values) values.push(ms);
      else this.stages.set(name, [ms]);
    }
  }

  figures() {
    return {
      count: this.totals.length,
      p50: round(percentile(this.totals, 50)),
      p95: round(percentile(this.totals, 95)),
      cpuP50: round(percentile(this.cpu, 50)),
      stagesP50: Object.fromEntries([...this.stages].map(([name, values]) => [name, round(percentile(values, 50))])),
      stagesP95: Object.fromEntries([...this.stages].map(([name, values]) => [name, round(percentile(values, 95))])),
    };
  }
}

/**
 * This process's CPU time since `since` (PGlite runs in process, so its queries count): on a
 * loaded machine wall time also counts the time the process waited for a core; CPU time does not.
 */
const cpuMs = (since: NodeJS.CpuUsage): number => {
  const used = process.cpuUsage(since);
  return (used.user + used.system) / 1000;
};

const requestOf = (request: BenchRequest) => ({
  goal: request.goal,
  constraints: request.context.constraints,
  principal: { user: `u-${request.context.roles[0]}`, roles: request.context.roles },
});

/**
 * `runs` goals of another stream answered end to end by the admin (the offline reader, the demo
 * corpus), then the learning queue drained: learned-v2 has their observations before timing.
 */
async function answerGoals(runtime: ContextRuntime, runs: number, afterEachRun: () => Promise<void>): Promise<{ answered: number; notAnswered: Record<string, number>; seconds: number }> {
  const started = performance.now();
  const notAnswered: Record<string, number> = {};
  let answered = 0;
  for (const request of generateRequests(runs, SEED + 1)) {
    try {
      const result = await runtime.run({ ...requestOf(request), principal: { user: 'u-admin', roles: ['admin'] } });
      if (result.status === 'completed' || result.status === 'unverified') answered++;
      else notAnswered[result.status] = (notAnswered[result.status] ?? 0) + 1;
    } catch (error) {
      const code = (error as { code?: string }).code ?? 'error';
      notAnswered[code] = (notAnswered[code] ?? 0) + 1;
    }
    await afterEachRun();
  }
  await runtime.learning().drain();
  return { answered, notAnswered, seconds: round((performance.now() - started) / 1000) };
}

async function main(): Promise<void> {
  const count = Number(argument('--requests') ?? 600);
  const jsonPath = argument('--json');
  const requests = generateRequests(count + WARM_UP, SEED);
  const fixture = await openRuntimeFixture({
    config: { policy: { source_roles: { 'demo-git': ['operator', 'admin'], 'demo-events': ['admin'] } } },
  });
  try {
    const cached = fixture.runtime;
    const coldConfig: RuntimeConfig = { ...cached.config, plan_cache: { ...cached.config.plan_cache, enabled: false } };
    // The same plugins (database, caches) with the plan cache off: every plan() is planned cold.
    const cold = ContextRuntime.create(fixture.plugins, coldConfig);
    // Warm-up off the record: JIT, word vectors, statement caches, the runtime's own caches.
    for (const request of requests.slice(0, WARM_UP)) await cold.plan(requestOf(request));
    const uncached = new Timings();
    const misses = new Timings();
    const hits = new Timings();
    const behindMisses = new Timings();
    const behindHits = new Timings();
    for (const request of requests.slice(WARM_UP)) {
      let started = performance.now();
      let cpu = process.cpuUsage();
      const planned = await cold.plan(requestOf(request));
      uncached.add(performance.now() - started, cpuMs(cpu), planned.timings);
      started = performance.now();
      cpu = process.cpuUsage();
      const served = await cached.plan(requestOf(request));
      (served.explain.planCache.status === 'hit' ? hits : misses).add(performance.now() - started, cpuMs(cpu), served.timings);
      // What plan() left behind (the plan-cache row, a miss's near-miss diagnosis) runs here, off
      // the record and timed apart: left queued, it would land inside the next timed call.
      started = performance.now();
      cpu = process.cpuUsage();
      await fixture.plugins.planCache?.flush?.();
      (served.explain.planCache.status === 'hit' ? behindHits : behindMisses).add(performance.now() - started, cpuMs(cpu), {});
    }
    const trainedRuns = Number(argument('--trained-runs') ?? 100);
    // A server with traffic plans right after runs: the run's observations just learned, the
    // process's caches full of the run's work. One uncached plan() of the stream after each run.
    const afterRun = new Timings();
    let next = WARM_UP;
    const training = await answerGoals(cold, trainedRuns, async () => {
      await cold.learning().drain();
      const request = requests[next++ % requests.length];
      const started = performance.now();
      const cpu = process.cpuUsage();
      const planned = await cold.plan(requestOf(request));
      afterRun.add(performance.now() - started, cpuMs(cpu), planned.timings);
    });
    const trained = new Timings();
    let learnedPlans = 0;
    for (const request of requests.slice(WARM_UP)) {
      const started = performance.now();
      const cpu = process.cpuUsage();
      const planned = await cold.plan(requestOf(request));
      trained.add(performance.now() - started, cpuMs(cpu), planned.timings);
      if (planned.explain.estimator?.name === 'learned-v2') learnedPlans++;
    }
    const figures = { requests: count, uncached: uncached.figures(), planCacheMiss: misses.figures(), planCacheHit: hits.figures(), behindMiss: behindMisses.figures(), behindHit: behindHits.figures(), trained: { ...trained.figures(), ...training, learnedPlans }, afterRun: afterRun.figures() };
    const stageNames = [...new Set([...uncached.stages.keys(), ...misses.stages.keys(), ...hits.stages.keys()])];
    console.log(`plan() overhead on a warm runtime: ${count} requests (demo corpus, ${WARM_UP} warm-up requests off the record); ${youngGenerationNote()}`);
    console.log(`| plan() | requests | p50 ms | p95 ms | CPU p50 ms |`);
    console.log(`|---|---:|---:|---:|---:|`);
    const trainedName = `uncached, after ${training.answered} runs (learned-v2 estimates)`;
    const afterRunName = 'uncached, right after each of those runs (its observations just learned)';
    for (const [name, figure] of [['uncached (plan cache off)', figures.uncached], ['plan-cache miss', figures.planCacheMiss], ['plan-cache hit', figures.planCacheHit], [trainedName, figures.trained], [afterRunName, figures.afterRun]] as const) {
      console.log(`| ${name} | ${figure.count} | ${figure.p50} | ${figure.p95} | ${figure.cpuP50} |`);
    }
    for (const [name, figure] of [['work behind a miss (flushed off the record)', behindMisses.figures()], ['work behind a hit (flushed off the record)', behindHits.figures()]] as const) {
      console.log(`| ${name} | ${figure.count} | ${figure.p50} | ${figure.p95} | ${figure.cpuP50} |`);
    }
    console.log(`uncached plan() p50 ${figures.uncached.p50} ms (target <= 2); its CPU time p50 ${figures.uncached.cpuP50} ms (load average ${loadavg()[0].toFixed(1)})`);
    console.log(`after ${training.answered} of ${trainedRuns} runs answered (${training.seconds} s; not answered: ${Object.entries(training.notAnswered).map(([status, runs]) => `${status} ${runs}`).join(', ') || 'none'}): uncached plan() p50 ${figures.trained.p50} ms; learned-v2 decided ${learnedPlans} of ${count} plans`);
    console.log('');
    console.log(`| stage (p50 / p95 ms) | uncached | miss | hit | uncached, trained | right after a run |`);
    console.log(`|---|---:|---:|---:|---:|---:|`);
    const cell = (figure: ReturnType<Timings['figures']>, name: string) => (name in figure.stagesP50 ? `${figure.stagesP50[name]} / ${figure.stagesP95[name]}` : '–');
    for (const name of stageNames) console.log(`| ${name} | ${cell(figures.uncached, name)} | ${cell(figures.planCacheMiss, name)} | ${cell(figures.planCacheHit, name)} | ${cell(figures.trained, name)} | ${cell(figures.afterRun, name)} |`);
    if (jsonPath) writeFileSync(jsonPath, `${JSON.stringify(figures, null, 2)}\n`);
  } finally {
    await fixture.close();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
