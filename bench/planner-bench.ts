/**
 * Planner benchmark: analyze + generate + estimate + score + optimize per goal.
 *   npm run bench:planner [-- --json FILE] [-- --goals N]
 * Prints candidates enumerated per goal and planning latency percentiles; with --json,
 * writes the same figures to FILE. Targets: ≥100 enumerated per goal, p50 ≤ 2 ms, p99 ≤ 10 ms.
 */
import { writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { DEFAULT_WEIGHTS } from '../server/runtime/config/config-schema';
import type { PlanningContext } from '../server/runtime/contracts/candidate-generator';
import { isContextRuntimeError } from '../server/runtime/errors';
import { heuristicCostModel, planGoal, planOptimizer, resolveWeights, ruleCandidateGenerator, ruleIntentAnalyzer } from '../server/runtime/planner/index';
import { demoPlanningContext } from '../server/runtime/planner/testing/demo-planning-context';
import type { Constraints } from '../server/runtime/types';
import { TEMPLATE_COUNT, generateGoals } from './planner-goals';

const SEED = 20_250_101;
const WARMUP_ROUNDS = 2;

function argument(name: string): string | undefined {
  const index = process.argv.indexOf(name);
  return index >= 0 ? process.argv[index + 1] : undefined;
}

const percentile = (sorted: readonly number[], p: number): number => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
const round = (value: number, digits = 4): number => Number(value.toFixed(digits));

function summary(values: readonly number[]) {
  const sorted = [...values].sort((left, right) => left - right);
  const mean = values.reduce((sum, value) => sum + value, 0) / values.length;
  return { min: round(sorted[0]), mean: round(mean), p50: round(percentile(sorted, 50)), p95: round(percentile(sorted, 95)), p99: round(percentile(sorted, 99)), max: round(sorted[sorted.length - 1]) };
}

// Constraint envelopes rotate so the feasibility checks are timed too; the last one is
// unsatisfiable (no plan answers in 0.1 s), so the NO_FEASIBLE_PLAN path is timed as well.
const ENVELOPES: readonly Constraints[] = [
  {},
  { max_cost_usd: 0.005, max_latency_seconds: 30 },
  { require_citations: true, max_tokens: 6000 },
  { require_verification: true, max_cost_usd: 0.002 },
  {},
  { max_latency_seconds: 0.1 },
];
// Goals cycle through TEMPLATE_COUNT templates; varying context and envelope per cycle gives every template every combination.

const baseContexts = [demoPlanningContext({ denseAvailable: true }), demoPlanningContext({ denseAvailable: false })];

/** A fresh context object per request, as the facade builds one (policy depends on the intent), so no per-context memo is reused across goals. */
const freshContext = (base: PlanningContext): PlanningContext => ({ ...base, policy: { ...base.policy } });

function main(): void {
  const count = Number(argument('--goals') ?? 1200);
  const jsonPath = argument('--json');
  const goals = generateGoals(count, SEED);
  const weights = resolveWeights(DEFAULT_WEIGHTS);
  const plan = (goal: string, index: number) =>
    planGoal({
      goal,
      context: freshContext(baseContexts[Math.floor(index / TEMPLATE_COUNT) % baseContexts.length]),
      constraints: ENVELOPES[Math.floor(index / (TEMPLATE_COUNT * baseContexts.length)) % ENVELOPES.length],
      weights,
      analyzer: ruleIntentAnalyzer,
      generator: ruleCandidateGenerator,
      costModel: heuristicCostModel,
      optimizer: planOptimizer,
    });
  const attempt = (goal: string, index: number) => {
    try {
      return plan(goal, index);
    } catch (error) {
      if (isContextRuntimeError(error) && error.code === 'NO_FEASIBLE_PLAN') return undefined;
      throw error;
    }
  };

  for (let round = 0; round < WARMUP_ROUNDS; round++) goals.forEach(({ goal }, index) => attempt(goal, index));

  const latencies: number[] = [];
  const feasibleLatencies: number[] = [];
  const infeasibleLatencies: number[] = [];
  const enumerated: number[] = [];
  const scored: number[] = [];
  const ranked: number[] = [];
  const stageMs = { analyze: [] as number[], generate: [] as number[], estimate: [] as number[], optimize: [] as number[] };
  const primaries: Record<string, number> = {};
  let infeasible = 0;
  goals.forEach(({ goal }, index) => {
    const started = process.hrtime.bigint();
    const result = attempt(goal, index);
    const elapsedMs = Number(process.hrtime.bigint() - started) / 1e6;
    latencies.push(elapsedMs);
    if (!result) {
      infeasible++;
      infeasibleLatencies.push(elapsedMs);
      return;
    }
    feasibleLatencies.push(elapsedMs);
    enumerated.push(result.enumerated);
    ranked.push(result.candidates.length);
    scored.push(result.candidates.length + result.rejected.filter((entry) => entry.stage === 'dominated').length);
    stageMs.analyze.push(result.timings.analyzeMs);
    stageMs.generate.push(result.timings.generateMs);
    stageMs.estimate.push(result.timings.estimateMs);
    stageMs.optimize.push(result.timings.optimizeMs);
    primaries[result.intent.primary] = (primaries[result.intent.primary] ?? 0) + 1;
  });

  const report = {
    goals: goals.length,
    seed: SEED,
    machine: { cpus: cpus().length, model: cpus()[0]?.model, node: process.version },
    enumeratedPerGoal: summary(enumerated),
    scoredPerGoal: summary(scored),
    rankedAfterDominancePerGoal: summary(ranked),
    planningLatencyMs: summary(latencies),
    planningLatencyMsChosen: summary(feasibleLatencies),
    planningLatencyMsNoFeasiblePlan: infeasibleLatencies.length > 0 ? summary(infeasibleLatencies) : undefined,
    stageLatencyMs: { analyze: summary(stageMs.analyze), generate: summary(stageMs.generate), estimate: summary(stageMs.estimate), optimize: summary(stageMs.optimize) },
    noFeasiblePlan: infeasible,
    primaryIntents: primaries,
    targets: { enumeratedMin: 100, p50Ms: 2, p99Ms: 10 },
  };
  const latency = report.planningLatencyMs;
  const met = report.enumeratedPerGoal.min >= 100 && latency.p50 <= 2 && latency.p99 <= 10;
  console.log(`planner bench: ${goals.length} goals, ${report.machine.cpus} CPUs, node ${process.version}`);
  console.log(`  candidates enumerated per goal: min ${report.enumeratedPerGoal.min}, mean ${report.enumeratedPerGoal.mean}, max ${report.enumeratedPerGoal.max}`);
  console.log(`  scored per goal (after rules): mean ${report.scoredPerGoal.mean}; ranked after dominance: mean ${report.rankedAfterDominancePerGoal.mean}`);
  console.log(`  planning latency ms: p50 ${latency.p50}, p95 ${latency.p95}, p99 ${latency.p99}, max ${latency.max}, mean ${latency.mean}`);
  const chosen = report.planningLatencyMsChosen;
  console.log(`    plan chosen (${feasibleLatencies.length}): p50 ${chosen.p50}, p99 ${chosen.p99}; NO_FEASIBLE_PLAN (${infeasible}): p50 ${report.planningLatencyMsNoFeasiblePlan?.p50 ?? '-'}, p99 ${report.planningLatencyMsNoFeasiblePlan?.p99 ?? '-'}`);
  console.log(`    stage figures below cover the goals that chose a plan`);
  for (const [stage, figures] of Object.entries(report.stageLatencyMs)) console.log(`    ${stage.padEnd(9)} p50 ${figures.p50} ms, p99 ${figures.p99} ms`);
  console.log(`  NO_FEASIBLE_PLAN: ${infeasible}; primary intents: ${JSON.stringify(primaries)}`);
  console.log(`  targets (≥100 enumerated, p50 ≤ 2 ms, p99 ≤ 10 ms): ${met ? 'met' : 'NOT met'}`);
  if (jsonPath) writeFileSync(jsonPath, `${JSON.stringify({ ...report, targetsMet: met }, null, 2)}\n`);
}

main();
