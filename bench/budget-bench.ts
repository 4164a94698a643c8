/**
 * Run budgets at run time (issue 15, point 5), measured:
 *   npm run bench:budget [-- --runs 100] [--deadline-runs 30] [--json out.json]
 *
 * Opens the real runtime on a fresh embedded database (demo corpus) with three priced
 * OpenAI-compatible loopback tiers: `grader` ($2/$8 per million tokens, first in the ladder, so an
 * LLM rerank, when the planner plans one, grades with it; it always answers), `cheap` ($2/$8,
 * answers the goal) and `premium` ($20/$80), the next rung above cheap. Cheap and premium also
 * answer the groundedness judge (verification is on by default), billed like any call.
 * - Cost: each run draws whether cheap fails (HTTP 500, so the router falls back to premium) and
 *   whether premium fails (so the node is retried), a reply length, and a max_cost_usd cap between
 *   10% and 95% of what a run spends with no cap when it falls back to premium (measured first):
 *   below what the fallback would spend, and for the lower caps below the planner's own estimate
 *   (those runs are refused at planning, NO_FEASIBLE_PLAN, and counted apart). Spend is what the
 *   loopback servers "bill" (their reported usage × the tier's prices, bench/budget/loopback-billing.ts)
 *   and what the run recorded; the figure to hold is max spend / cap ≤ 1.0.
 * - Deadlines: cheap answers only after 30 s; each run sets max_latency_seconds between 2 and 3 s.
 *   How far past its limit each run ended: its run span (execution, the budget's clock) and the
 *   caller's wall time less planning. The figure to hold is ≤ 100 ms.
 */
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { DEMO_QUESTION } from '../server/ingest/demo-corpus';
import { isContextRuntimeError } from '../server/runtime/errors';
import { startLoopbackOpenAIServer } from '../server/testing/loopback-openai-server';
import { isJudgeCall, SUPPORTED_VERDICT } from '../server/testing/scripted-answer-model';
import { openRuntimeFixture } from '../server/testing/runtime-fixture';
import { billedSince, billingMark, percentile, type PricedServer, seeded } from './budget/loopback-billing';

const { values } = parseArgs({ options: { runs: { type: 'string', default: '100' }, 'deadline-runs': { type: 'string', default: '30' }, json: { type: 'string' } } });
const RUNS = Number(values.runs);
const DEADLINE_RUNS = Number(values['deadline-runs']);
const random = seeded(20_261_202);
const sentence = (count: number) => `The checkout-api pods ran out of memory [1].${' and so on'.repeat(Math.max(0, Math.ceil((count - 8) / 3)))}`;

const [graderServer, cheapServer, premiumServer] = await Promise.all([startLoopbackOpenAIServer({ text: '{}' }), startLoopbackOpenAIServer({ text: sentence(8) }), startLoopbackOpenAIServer({ text: sentence(8) })]);
const grader: PricedServer = { server: graderServer, inputUsdPerMillion: 2, outputUsdPerMillion: 8 };
const cheap: PricedServer = { server: cheapServer, inputUsdPerMillion: 2, outputUsdPerMillion: 8 };
const premium: PricedServer = { server: premiumServer, inputUsdPerMillion: 20, outputUsdPerMillion: 80 };
const servers = [grader, cheap, premium];
// The groundedness judge (verification is on by default) gets a verdict, so an answered run can complete; it is billed like any call.
for (const answering of [cheapServer, premiumServer]) answering.script((body) => (isJudgeCall(body) ? { text: SUPPORTED_VERDICT } : undefined));
const replyOf = (priced: PricedServer, body: Record<string, unknown>) => {
  const reply = replies.get(priced);
  return reply !== undefined && priced !== grader && isJudgeCall(body) ? SUPPORTED_VERDICT : reply;
};
const fixture = await openRuntimeFixture({
  config: {
    models: {
      // 40 output tokens keep cheap's latency estimate (0.4 s + 40 × 0.03 s) inside the deadlines below.
      tiers: [
        // quality 0.1: never the answering tier, only the reranker's (the first language-model tier).
        { name: 'grader', provider: 'openai-compatible', base_url: graderServer.baseURL, model: 'grader-1', quality_prior: 0.1, input_usd_per_million: 2, output_usd_per_million: 8 },
        { name: 'cheap', provider: 'openai-compatible', base_url: cheapServer.baseURL, model: 'cheap-1', quality_prior: 0.9, max_output_tokens: 40, input_usd_per_million: 2, output_usd_per_million: 8 },
        { name: 'premium', provider: 'openai-compatible', base_url: premiumServer.baseURL, model: 'premium-1', quality_prior: 0.95, input_usd_per_million: 20, output_usd_per_million: 80 },
      ],
    },
    scheduler: { backoff_ms: 0, max_attempts: 2 },
    // Enforcement is measured here, not estimation: with learned estimates a slow first deadline run
    // teaches the planner that cheap is slow, and later runs move to a tier that answers in time.
    learning: { enabled: false, learned_estimates: false },
  },
});

interface Scenario {
  readonly cheapFails: boolean;
  readonly premiumFails: boolean;
  readonly replyWords: number;
}
/** What each server answers in the current run; undefined when it answers HTTP 500. */
const replies = new Map<PricedServer, string | undefined>([[grader, '{}']]);
function arrange(scenario: Scenario, delayMs = 0) {
  const text = sentence(scenario.replyWords);
  replies.set(cheap, scenario.cheapFails ? undefined : text);
  replies.set(premium, scenario.premiumFails ? undefined : text);
  cheapServer.reply({ status: scenario.cheapFails ? 500 : 200, text, delayMs });
  premiumServer.reply({ status: scenario.premiumFails ? 500 : 200, text });
}

/** One run: its status (or the planner's refusal), what the servers billed and what the run recorded. */
async function measuredRun(constraints: Record<string, number>) {
  const mark = billingMark(servers);
  const calledAt = performance.now();
  try {
    const result = await fixture.runtime.run({ goal: DEMO_QUESTION, constraints });
    const wallMs = performance.now() - calledAt;
    return { status: result.status, error: result.error ?? '', billed: billedSince(servers, mark, replyOf), recorded: result.explain.analyze?.totals.actual.costUsd ?? 0, wallMs, planningMs: result.explain.planningMs, runId: result.runId, tier: result.explain.chosen.choice.modelTier };
  } catch (error) {
    if (isContextRuntimeError(error) && error.code === 'NO_FEASIBLE_PLAN') return { status: 'no feasible plan', error: error.message, billed: billedSince(servers, mark, replyOf), recorded: 0, wallMs: performance.now() - calledAt, planningMs: 0, runId: '', tier: '' };
    throw error;
  }
}

try {
  // What each scenario spends with no cap: the reference each cap is drawn below.
  const uncapped = new Map<string, number>();
  const keyOf = (scenario: Scenario) => `${scenario.cheapFails}/${scenario.premiumFails}`;
  for (const cheapFails of [false, true]) {
    for (const premiumFails of [false, true]) {
      const scenario = { cheapFails, premiumFails, replyWords: 30 };
      arrange(scenario);
      const run = await measuredRun({});
      uncapped.set(keyOf(scenario), run.billed);
      console.log(`uncapped: cheap ${cheapFails ? 'fails' : 'answers'}, premium ${premiumFails ? 'fails' : 'answers'}: ${run.status}, billed $${run.billed.toFixed(6)}`);
    }
  }

  const costRuns = [];
  for (let index = 0; index < RUNS; index++) {
    const scenario: Scenario = { cheapFails: random() < 0.5, premiumFails: random() < 0.25, replyWords: 5 + Math.floor(random() * 26) };
    const reference = uncapped.get('true/false')!;
    const cap = Number(((0.1 + random() * 0.85) * reference).toPrecision(4));
    arrange(scenario);
    const run = await measuredRun({ max_cost_usd: cap });
    costRuns.push({ ...scenario, cap, reference, ...run, billedShare: run.billed / cap, recordedShare: run.recorded / cap });
  }

  const deadlineRuns = [];
  for (let index = 0; index < DEADLINE_RUNS; index++) {
    const limit = Number((2 + random()).toFixed(2));
    arrange({ cheapFails: false, premiumFails: false, replyWords: 8 }, 30_000);
    const before = cheapServer.calls.length;
    const run = await measuredRun({ max_latency_seconds: limit });
    const span = run.runId ? (await fixture.runtime.getRun(run.runId)).spans.find((entry) => entry.name === 'run') : undefined;
    const calls = cheapServer.calls.slice(before);
    await new Promise((resolve) => setTimeout(resolve, 50));
    deadlineRuns.push({ limit, status: run.status, error: run.error, pastMsRunSpan: span ? span.durationMs - limit * 1000 : Number.NaN, pastMsCaller: run.wallMs - run.planningMs - limit * 1000, callsAborted: calls.filter((call) => call.ended === 'aborted').length, callsAnswered: calls.filter((call) => call.ended === 'answered').length });
  }

  const count = (list: readonly { status: string; error: string }[], status: string, pattern?: RegExp) => list.filter((run) => run.status === status && (!pattern || pattern.test(run.error))).length;
  const fixed = (value: number, digits = 3) => (Number.isFinite(value) ? value.toFixed(digits) : '-');
  const costSummary = {
    runs: costRuns.length,
    completed: count(costRuns, 'completed'),
    unverified: count(costRuns, 'unverified'),
    failedMaxCost: count(costRuns, 'failed', /max_cost_usd/),
    failedOther: costRuns.filter((run) => run.status === 'failed' && !/max_cost_usd/.test(run.error)).length,
    noFeasiblePlan: count(costRuns, 'no feasible plan'),
    fallbackRefused: costRuns.filter((run) => /model tier "premium"/.test(run.error)).length,
    maxBilledOverCap: Math.max(...costRuns.map((run) => run.billedShare)),
    p50BilledOverCap: percentile(costRuns.map((run) => run.billedShare), 0.5),
    maxRecordedOverCap: Math.max(...costRuns.map((run) => run.recordedShare)),
  };
  const deadlineSummary = {
    runs: deadlineRuns.length,
    failedMaxLatency: count(deadlineRuns, 'failed', /max_latency_seconds/),
    other: deadlineRuns.filter((run) => !(run.status === 'failed' && /max_latency_seconds/.test(run.error))).length,
    p50PastMsRunSpan: percentile(deadlineRuns.map((run) => run.pastMsRunSpan), 0.5),
    maxPastMsRunSpan: Math.max(...deadlineRuns.map((run) => run.pastMsRunSpan)),
    p50PastMsCaller: percentile(deadlineRuns.map((run) => run.pastMsCaller), 0.5),
    maxPastMsCaller: Math.max(...deadlineRuns.map((run) => run.pastMsCaller)),
    callsAborted: deadlineRuns.reduce((sum, run) => sum + run.callsAborted, 0),
    callsAnswered: deadlineRuns.reduce((sum, run) => sum + run.callsAnswered, 0),
  };
  console.log(`\ncost cap (max_cost_usd 10–95 % of $${uncapped.get('true/false')!.toFixed(6)}, the uncapped spend of a run that falls back to premium)`);
  console.log('  runs  completed  unverified  failed:max_cost_usd  (fallback refused)  failed:other  no plan  max billed/cap  p50 billed/cap  max recorded/cap');
  console.log(`  ${String(costSummary.runs).padStart(4)}  ${String(costSummary.completed).padStart(9)}  ${String(costSummary.unverified).padStart(10)}  ${String(costSummary.failedMaxCost).padStart(19)}  ${String(costSummary.fallbackRefused).padStart(18)}  ${String(costSummary.failedOther).padStart(12)}  ${String(costSummary.noFeasiblePlan).padStart(7)}  ${fixed(costSummary.maxBilledOverCap).padStart(14)}  ${fixed(costSummary.p50BilledOverCap).padStart(14)}  ${fixed(costSummary.maxRecordedOverCap).padStart(16)}`);
  console.log('\ndeadline (max_latency_seconds 2–3 s, model answers after 30 s)');
  console.log('  runs  failed:max_latency_seconds  other  past limit ms (run span) p50 / max  past limit ms (caller − planning) p50 / max  calls aborted / answered');
  console.log(`  ${String(deadlineSummary.runs).padStart(4)}  ${String(deadlineSummary.failedMaxLatency).padStart(26)}  ${String(deadlineSummary.other).padStart(5)}  ${`${fixed(deadlineSummary.p50PastMsRunSpan, 1)} / ${fixed(deadlineSummary.maxPastMsRunSpan, 1)}`.padStart(36)}  ${`${fixed(deadlineSummary.p50PastMsCaller, 1)} / ${fixed(deadlineSummary.maxPastMsCaller, 1)}`.padStart(44)}  ${`${deadlineSummary.callsAborted} / ${deadlineSummary.callsAnswered}`.padStart(24)}`);
  for (const run of deadlineRuns.filter((entry) => !(entry.status === 'failed' && /max_latency_seconds/.test(entry.error)))) console.log(`  other: ${run.status} ${run.error.slice(0, 160)}`);
  if (values.json) writeFileSync(values.json, JSON.stringify({ cost: costSummary, deadline: deadlineSummary, costRuns, deadlineRuns }, null, 2));
} finally {
  await fixture.close();
  await Promise.all([graderServer.close(), cheapServer.close(), premiumServer.close()]);
}
