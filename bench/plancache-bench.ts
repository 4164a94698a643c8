/**
 * Semantic Plan Cache benchmark over the real runtime (embedded PGlite, demo incident corpus).
 *   npm run bench:plancache [-- --json FILE] [-- --requests N]
 * Every request is planned twice, side by side: cold (plan cache disabled) and through the cache.
 * The cold plan is the ground truth a served plan must equal. Prints hits / hits a correct cache
 * could make (target ≥ 90%), unsound hits (another principal, budget or source version: must be 0),
 * and the time to return a cached plan against cold planning (target ≥ 20×).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { planRequest } from '../server/runtime/facade/plan-request';
import { validateRunRequest } from '../server/runtime/facade/validate-request';
import { canonicalJson } from '../server/runtime/ir/serialize-graph';
import type { RuntimeConfig } from '../server/runtime/config/config-schema';
import { openRuntimeFixture } from '../server/testing/runtime-fixture';
import { generateRequests, type BenchRequest } from './plancache-goals';

const SEED = 20_261_130;
/** A changed source every this many requests: every plan made before must stop being served. */
const SOURCE_CHANGE_EVERY = 300;

const argument = (name: string): string | undefined => {
  const index = process.argv.indexOf(name);
  return index >= 0 ? process.argv[index + 1] : undefined;
};
const percentile = (values: readonly number[], p: number): number => {
  const sorted = [...values].sort((left, right) => left - right);
  return sorted.length === 0 ? Number.NaN : sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
};
const round = (value: number, digits = 4): number => Number(value.toFixed(digits));
const timing = (values: readonly number[]) => ({ p50: round(percentile(values, 50)), p95: round(percentile(values, 95)), mean: round(values.reduce((sum, value) => sum + value, 0) / Math.max(1, values.length)) });

interface Outcome {
  readonly request: BenchRequest;
  readonly epoch: number;
  /** Chosen candidate + Execution Graph of cold planning: what a served plan must equal. */
  readonly coldPlan: string;
  readonly plannerInput: string;
}

async function main(): Promise<void> {
  const count = Number(argument('--requests') ?? 1200);
  const jsonPath = argument('--json');
  const requests = generateRequests(count, SEED);
  const fixture = await openRuntimeFixture({
    // Permissions that change what each principal may read: viewer < operator < admin.
    config: { policy: { source_roles: { 'demo-git': ['operator', 'admin'], 'demo-events': ['admin'] } } },
  });
  const notes = join(fixture.root, 'bench-notes');
  mkdirSync(notes, { recursive: true });
  const writeNotes = async (epoch: number) => {
    writeFileSync(join(notes, 'notes.md'), `# Bench notes\n\nRevision ${epoch}: checkout-api memory limit is ${128 + epoch * 32}Mi.\n`);
    await fixture.runtime.ingest(notes, { source: 'bench-notes' });
  };
  try {
    await writeNotes(0);
    const plugins = fixture.plugins;
    const cachedConfig = fixture.runtime.config;
    const coldConfig: RuntimeConfig = { ...cachedConfig, plan_cache: { ...cachedConfig.plan_cache, enabled: false } };
    const planOf = (request: BenchRequest, config: RuntimeConfig) =>
      planRequest(plugins, config, validateRunRequest({ goal: request.goal, constraints: request.context.constraints, principal: { user: `u-${request.context.roles[0]}`, roles: request.context.roles } }));
    // Warm-up off the record: JIT, word vectors, statement caches.
    for (const request of requests.slice(0, 20)) await planOf(request, coldConfig);

    const outcomes: Outcome[] = [];
    const originOf = new Map<string, number>();
    const cold = { total: [] as number[], planning: [] as number[], stages: [] as number[] };
    const hit = { total: [] as number[], lookup: [] as number[], memory: 0 };
    let epoch = 0;
    let hits = 0;
    let eligible = 0;
    let eligibleSameInput = 0;
    let correctSameInput = 0;
    let correct = 0;
    let unsound = 0;
    let wrongQuestion = 0;
    let planMismatch = 0;
    const nearMissReasons: Record<string, number> = {};
    const mismatchSamples: { served: string; goal: string; servedPlan: string; coldPlan: string }[] = [];
    const missedByReason: Record<string, number> = {};
    const missedSamples: { goal: string; nearest?: string; differs?: readonly string[] }[] = [];
    for (const request of requests) {
      if (request.index > 0 && request.index % SOURCE_CHANGE_EVERY === 0) await writeNotes(++epoch);
      let started = performance.now();
      const coldPlanned = await planOf(request, coldConfig);
      cold.total.push(performance.now() - started);
      cold.stages.push(coldPlanned.timings['planner.candidates'] + coldPlanned.timings['planner.cost_model'] + coldPlanned.timings['planner.optimizer']);
      // Everything after the key is built: what a hit skips (candidates … graph, explain, contradictions).
      const keyed = ['intent', 'sources', 'policy', 'fingerprint', 'key'].reduce((sum, stage) => sum + (coldPlanned.timings[`planner.${stage}`] ?? 0), 0);
      cold.planning.push(coldPlanned.explain.planningMs - keyed);
      // Node estimates scale with the goal's length; the plan is the choice and the graph's structure.
      const coldPlan = canonicalJson([coldPlanned.explain.chosen.id, coldPlanned.graph.nodes.map(({ estimate: _estimate, ...node }) => node)]);
      // What the planner reads of the intent: wordings the analyzer classifies differently may plan differently.
      const plannerInput = canonicalJson([coldPlanned.intent.primary, [...coldPlanned.intent.classes].sort()]);
      const outcome = { request, epoch, coldPlan, plannerInput };
      const sameQuestion = outcomes.filter((earlier) => earlier.epoch === epoch && earlier.request.family === request.family && earlier.request.context.id === request.context.id && earlier.coldPlan === coldPlan);
      const canHit = sameQuestion.length > 0;
      if (canHit) eligible++;
      const canHitSameInput = sameQuestion.some((earlier) => earlier.plannerInput === plannerInput);
      if (canHitSameInput) eligibleSameInput++;

      started = performance.now();
      const planned = await planOf(request, cachedConfig);
      const elapsed = performance.now() - started;
      const status = planned.explain.planCache;
      if (status.status === 'hit') {
        hits++;
        hit.total.push(elapsed);
        hit.lookup.push(planned.timings['planner.plan_cache']);
        if (status.tier === 'memory') hit.memory++;
        const origin = outcomes[originOf.get(planned.explain.planHash)!];
        const sameContext = origin.request.context.id === request.context.id && origin.epoch === epoch;
        if (!sameContext) unsound++;
        else if (origin.request.family !== request.family) wrongQuestion++;
        else if (origin.coldPlan !== coldPlan) {
          planMismatch++;
          if (mismatchSamples.length < 5) mismatchSamples.push({ served: origin.request.goal, goal: request.goal, servedPlan: origin.coldPlan.slice(0, 400), coldPlan: coldPlan.slice(0, 400) });
        }
        else {
          correct++;
          if (origin.plannerInput === outcome.plannerInput) correctSameInput++;
        }
      } else {
        originOf.set(planned.explain.planHash, outcomes.length);
        if (canHit) {
          const reason = !canHitSameInput ? 'analyzer gave this wording other intent classes' : (status.nearMiss?.differs.join('+') ?? 'nothing similar');
          missedByReason[reason] = (missedByReason[reason] ?? 0) + 1;
          if (missedSamples.length < 12) missedSamples.push({ goal: request.goal, nearest: status.nearMiss?.intent, differs: status.nearMiss?.differs });
        }
        const reason = status.nearMiss?.differs[0];
        if (reason) nearMissReasons[reason] = (nearMissReasons[reason] ?? 0) + 1;
      }
      outcomes.push(outcome);
    }
    const hitLookupP50 = percentile(hit.lookup, 50);
    const figures = {
      requests: count,
      families: new Set(requests.map((request) => request.family)).size,
      contexts: new Set(requests.map((request) => request.context.id)).size,
      sourceChanges: epoch,
      hits,
      hitsACorrectCacheCouldMake: eligible,
      correctHits: correct,
      hitRecall: round(correct / Math.max(1, eligible)),
      hitsACorrectCacheCouldMakeWithSameIntentClasses: eligibleSameInput,
      hitRecallSameIntentClasses: round(correctSameInput / Math.max(1, eligibleSameInput)),
      unsoundHits: unsound,
      wrongQuestionHits: wrongQuestion,
      planMismatchHits: planMismatch,
      hitsFromMemory: hit.memory,
      nearMissesByFirstReason: nearMissReasons,
      mismatchSamples,
      missedByReason,
      missedSamples,
      ms: {
        cachedPlanLookup: timing(hit.lookup),
        coldPlanning: timing(cold.planning),
        coldPlannerStagesOnly: timing(cold.stages),
        planRequestOnHit: timing(hit.total),
        planRequestCold: timing(cold.total),
      },
      speedup: {
        cachedPlanVsColdPlanning: round(percentile(cold.planning, 50) / hitLookupP50, 1),
        cachedPlanVsPlannerStagesOnly: round(percentile(cold.stages, 50) / hitLookupP50, 1),
        planRequestHitVsCold: round(percentile(cold.total, 50) / percentile(hit.total, 50), 2),
      },
    };
    console.log(`plan cache bench: ${count} requests, ${figures.families} question families (3 wordings each), ${figures.contexts} principal×budget contexts, ${epoch} source changes`);
    console.log(`hits ${hits}; correct ${correct} of ${eligible} a correct cache could make = ${(figures.hitRecall * 100).toFixed(1)}% (target >= 90%)`);
    console.log(`  counting only wordings the intent analyzer gives the same classes (what the planner reads): ${correctSameInput} of ${eligibleSameInput} = ${(figures.hitRecallSameIntentClasses * 100).toFixed(1)}%`);
    console.log(`unsound hits (other permissions, budget or source version): ${unsound} (must be 0); wrong-question hits ${wrongQuestion}; hits whose plan differs from cold planning ${planMismatch}`);
    console.log(`near misses by first differing part: ${JSON.stringify(nearMissReasons)}`);
    console.log(`hits a correct cache could make but this one missed, by differing parts: ${JSON.stringify(missedByReason)}`);
    console.log(`cached plan returned p50 ${figures.ms.cachedPlanLookup.p50} ms (${hit.memory}/${hits} from memory) vs cold planning p50 ${figures.ms.coldPlanning.p50} ms: ${figures.speedup.cachedPlanVsColdPlanning}x (target >= 20x)`);
    console.log(`  (cold planning = everything after the key; its CPU-only planner stages alone p50 ${figures.ms.coldPlannerStagesOnly.p50} ms: ${figures.speedup.cachedPlanVsPlannerStagesOnly}x)`);
    console.log(`whole plan() incl. source/policy/fingerprint reads: hit p50 ${figures.ms.planRequestOnHit.p50} ms vs cold p50 ${figures.ms.planRequestCold.p50} ms: ${figures.speedup.planRequestHitVsCold}x`);
    if (jsonPath) writeFileSync(jsonPath, `${JSON.stringify(figures, null, 2)}\n`);
  } finally {
    await fixture.close();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
