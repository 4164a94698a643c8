/**
 * Online-learning benchmark: the runtime's LinUCB (server/runtime/learning) choosing, per query,
 * among retrieval plans on a shuffled mix of labelled sets, against every single fixed plan.
 *
 *   npm run bench:bandit -- [--datasets ../shared/datasets/scifact,../shared/datasets/musique-train100,../shared/datasets/hotpotqa-train100]
 *     [--split train] [--arms bm25,dense,hybrid,rerank,rm3,graph] [--metric ndcg@10|recall@5]
 *     [--latency-penalty 0.1] [--latency-scale-ms 200] [--alpha 0.2] [--top-k-arms 3] [--seeds 20] [--limit N] [--rewards FILE] [--json FILE]
 *     [--safe-margin 0.05] [--safe-window 100] [--safe-confidence 1] [--exploration-share 0.1] [--window 100]
 *
 * Phase 1 (slow, once): each dataset is ingested and opened as a runtime exactly as bench:retrieval
 * does (bench/retrieval: ingestDataset, openBenchRuntime, retrieverRunner), every arm answers every
 * query, and the per-query quality (nDCG@10, Recall@5 against the qrels) and latency are logged
 * with the query's intent features. --rewards FILE caches this log (read if it exists).
 * Phase 2 (milliseconds): the bandit is replayed over --seeds shuffled orders of the mixed queries;
 * it only sees the reward of the arm it plays. Reward = quality − latency penalty.
 * The bandit runs as the runtime runs it by default (config `learning`): safe exploration (no arm
 * whose lower bound, --safe-confidence standard errors σ̂·√(xᵀA⁻¹x) under its mean, is more than
 * --safe-margin below the default plan's) within an exploration budget (--exploration-share of
 * decisions); plain LinUCB and the bounds at σ = 1 (before σ̂) are printed beside it. The default plan is
 * each query's first offered arm (the highest recall prior: the optimizer's choice without learning).
 * Acceptance (issue 16.2): cumulative reward ≥ the best fixed plan's, and no --window-query window
 * whose mean reward is below the default plan's by more than the margin, in any order.
 */
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { intentFeatures } from '../server/runtime/learning/intent-features';
import { LEARNING_DEFAULTS } from '../server/runtime/learning/bandit-learner';
import { overtakeStep, replayBandit, type ReplayItem, type ReplayRun, shuffledOrder, worstWindow } from '../server/runtime/learning/bandit-replay';
import { loadBeirDataset } from './retrieval/beir-dataset';
import { ingestDataset, writeBenchConfig } from './retrieval/bench-database';
import { openBenchRuntime } from './retrieval/bench-runtime';
import { retrieverRunner, runQueries } from './retrieval/method-runs';
import { ndcgAt, recallAt } from './retrieval/metrics';

const DEFAULT_DATASETS = ['../shared/datasets/scifact', '../shared/datasets/musique-train100', '../shared/datasets/hotpotqa-train100'];
const DEFAULT_ARMS = ['bm25', 'dense', 'hybrid', 'rerank', 'rm3', 'graph'];
const BUDGET = 3000;

interface LoggedQuery {
  readonly group: string;
  readonly queryId: string;
  readonly context: readonly number[];
  /** Per arm, in the log's arm order. */
  readonly ndcg10: readonly number[];
  readonly recall5: readonly number[];
  readonly latencyMs: readonly number[];
  /** The runtime's own recall prior of each arm for this query's intent (RetrieverCapabilities.recallPrior). */
  readonly priors: readonly number[];
}

interface RewardLog {
  readonly arms: readonly string[];
  readonly split: string;
  readonly queries: readonly LoggedQuery[];
}

const argument = (name: string): string | undefined => {
  const index = process.argv.indexOf(name);
  return index >= 0 ? process.argv[index + 1] : undefined;
};
const numberArgument = (name: string, fallback: number): number => {
  const value = Number(argument(name) ?? fallback);
  if (!Number.isFinite(value) || value < 0) throw new Error(`${name} must be a non-negative number, got ${argument(name)}`);
  return value;
};

async function logRewards(folders: readonly string[], split: string, arms: readonly string[], limit: number | undefined): Promise<RewardLog> {
  const logged: { group: string; queryId: string; primary: string; context: readonly number[]; byArm: Map<string, { ndcg10: number; recall5: number; latencyMs: number; prior: number }> }[] = [];
  let kept = [...arms];
  for (const folder of folders) {
    const loaded = loadBeirDataset(folder, split);
    const dataset = limit ? { ...loaded, queries: loaded.queries.slice(0, limit) } : loaded;
    const started = performance.now();
    const corpus = await ingestDataset(dataset);
    try {
      const bench = await openBenchRuntime(writeBenchConfig(corpus, BUDGET));
      try {
        const environment = { dataset, sourceName: corpus.sourceName, documentOf: corpus.documentOf, budget: BUDGET };
        const rows = dataset.queries.map((query) => {
          const intent = bench.plugins.intentAnalyzer.analyze(query.text);
          return { group: dataset.name, queryId: query.id, primary: intent.primary, context: intentFeatures(intent), byArm: new Map<string, { ndcg10: number; recall5: number; latencyMs: number; prior: number }>() };
        });
        for (const arm of kept) {
          const retriever = bench.retriever(arm);
          if (!retriever?.capabilities().available) {
            console.log(`  ${dataset.name}: arm ${arm} dropped (${retriever ? retriever.capabilities().unavailableReason : 'not registered'})`);
            kept = kept.filter((name) => name !== arm);
            continue;
          }
          const run = await runQueries(arm, environment, retrieverRunner(retriever, environment));
          if (run.errors > 0) console.log(`  ${dataset.name}: arm ${arm} failed on ${run.errors} of ${dataset.queries.length} queries (first: ${run.firstError}); each failure scores an empty ranking`);
          const byQuery = new Map(run.runs.map((queryRun) => [queryRun.queryId, queryRun]));
          dataset.queries.forEach((query, index) => {
            const gold = dataset.qrels.get(query.id)!;
            // A failed query counts as an empty ranking at the full latency penalty: errors must not pay.
            const queryRun = byQuery.get(query.id);
            const ranked = queryRun?.ranked ?? [];
            const priors = retriever.capabilities().recallPrior;
            const prior = priors[rows[index].primary] ?? priors.default ?? 0;
            rows[index].byArm.set(arm, { ndcg10: ndcgAt(ranked, gold, 10), recall5: recallAt(ranked, gold, 5), latencyMs: queryRun?.latencyMs ?? Number.MAX_SAFE_INTEGER, prior });
          });
        }
        logged.push(...rows);
      } finally {
        await bench.close();
      }
    } finally {
      rmSync(corpus.root, { recursive: true, force: true });
    }
    console.log(`  ${dataset.name}/${split}: ${dataset.queries.length} queries × ${kept.length} arms logged in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  }
  // An arm missing on any set is dropped everywhere: every query must know every arm's reward.
  return {
    arms: kept,
    split,
    queries: logged.map(({ group, queryId, context, byArm }) => ({
      group,
      queryId,
      context,
      ndcg10: kept.map((arm) => byArm.get(arm)!.ndcg10),
      recall5: kept.map((arm) => byArm.get(arm)!.recall5),
      latencyMs: kept.map((arm) => byArm.get(arm)!.latencyMs),
      priors: kept.map((arm) => byArm.get(arm)!.prior),
    })),
  };
}

const fixed = (value: number, digits = 1) => (Number.isFinite(value) ? value.toFixed(digits) : '–');
const meanOf = (values: readonly number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;

function printTable(headers: readonly string[], rows: readonly (readonly string[])[]): void {
  console.log(`| ${headers.join(' | ')} |`);
  console.log(`|${headers.map((_, index) => (index === 0 ? '---' : '---:')).join('|')}|`);
  for (const row of rows) console.log(`| ${row.join(' | ')} |`);
}

async function main(): Promise<void> {
  const folders = (argument('--datasets') ?? DEFAULT_DATASETS.join(',')).split(',').map((entry) => entry.trim()).filter(Boolean);
  const split = argument('--split') ?? 'train';
  const arms = (argument('--arms') ?? DEFAULT_ARMS.join(',')).split(',').map((entry) => entry.trim()).filter(Boolean);
  const metric = argument('--metric') ?? 'ndcg@10';
  if (metric !== 'ndcg@10' && metric !== 'recall@5') throw new Error(`--metric must be ndcg@10 or recall@5, got ${metric}`);
  const latencyPenalty = numberArgument('--latency-penalty', 0.1);
  const latencyScaleMs = numberArgument('--latency-scale-ms', 200);
  const alpha = numberArgument('--alpha', LEARNING_DEFAULTS.alpha);
  const windowSize = Math.max(1, Math.round(numberArgument('--window', 100)));
  const safety = { margin: numberArgument('--safe-margin', LEARNING_DEFAULTS.safe_margin), window: Math.max(1, Math.round(numberArgument('--safe-window', LEARNING_DEFAULTS.safe_window))), share: Math.min(1, numberArgument('--exploration-share', LEARNING_DEFAULTS.exploration_share)), confidence: numberArgument('--safe-confidence', LEARNING_DEFAULTS.safe_confidence) };
  const seeds = Math.max(1, Math.round(numberArgument('--seeds', 20)));
  // The runtime's default (config learning.top_k_arms); 0 offers every arm on every query.
  const topKArms = Math.round(numberArgument('--top-k-arms', 3));
  const limit = argument('--limit') ? Math.round(numberArgument('--limit', 0)) : undefined;
  const rewardsPath = argument('--rewards');

  console.log(`bench:bandit: ${cpus().length} CPUs, node ${process.version}`);
  let log: RewardLog;
  if (rewardsPath && existsSync(rewardsPath)) {
    log = JSON.parse(readFileSync(rewardsPath, 'utf8')) as RewardLog;
    console.log(`phase 1: per-query rewards read from ${rewardsPath} (${log.queries.length} queries × ${log.arms.length} arms, logged earlier by this bench)`);
  } else {
    console.log(`phase 1: every arm answers every query once (${arms.join(', ')}) through the runtime's retrievers, as bench:retrieval runs them`);
    log = await logRewards(folders, split, arms, limit);
    if (rewardsPath) writeFileSync(rewardsPath, JSON.stringify(log));
  }

  const quality = (query: LoggedQuery) => (metric === 'ndcg@10' ? query.ndcg10 : query.recall5);
  // As the runtime offers the bandit only the top_k_arms plans the cost model ranks highest, each
  // query offers the arms with the highest recall prior for its intent (the cost model's accuracy input).
  const offered = (query: LoggedQuery): number[] | undefined =>
    topKArms === 0 || !query.priors ? undefined : query.priors.map((prior, arm) => ({ prior, arm })).sort((left, right) => right.prior - left.prior || left.arm - right.arm).slice(0, topKArms).map(({ arm }) => arm);
  const items: ReplayItem[] = log.queries.map((query) => ({
    group: query.group,
    context: query.context,
    rewards: quality(query).map((value, arm) => value - latencyPenalty * Math.min(1, query.latencyMs[arm] / latencyScaleMs)),
    ...(offered(query) ? { allowed: offered(query) } : {}),
  }));
  const armNames = log.arms;
  const steps = items.length;

  console.log(`\nreward = ${metric} − ${latencyPenalty} × min(1, latency / ${latencyScaleMs} ms); mean reward per arm and set:`);
  const groups = [...new Set(items.map((item) => item.group))];
  printTable(['set', 'queries', ...armNames], [...groups, 'all'].map((group) => {
    const members = items.filter((item) => group === 'all' || item.group === group);
    return [group, String(members.length), ...armNames.map((_, arm) => fixed(meanOf(members.map((item) => item.rewards[arm])), 4))];
  }));

  const offeredTally = new Map<string, number>();
  for (const item of items) for (const arm of item.allowed ?? []) offeredTally.set(`${item.group}:${armNames[arm]}`, (offeredTally.get(`${item.group}:${armNames[arm]}`) ?? 0) + 1);
  console.log(
    !items.some((item) => item.allowed)
      ? `\nthe bandit may choose any arm on every query (${topKArms === 0 ? '--top-k-arms 0' : 'this reward log has no recall priors'})`
      : `\nthe bandit is offered, per query, the ${topKArms} arms with the highest recall prior for the query's intent (the runtime's top_k_arms default; --top-k-arms 0 offers all):\n  ${groups.map((group) => `${group}: ${armNames.map((name) => `${name} ${offeredTally.get(`${group}:${name}`) ?? 0}`).join(', ')}`).join('\n  ')}`,
  );
  console.log(`\nphase 2: LinUCB (α = ${alpha}, ${items[0].context.length} intent features, the runtime's own update code) with safe exploration (margin ${safety.margin} over ${safety.window}-decision windows, lower bounds at ${safety.confidence} spreads, exploration share ${safety.share}) replayed over ${seeds} shuffled orders of ${steps} queries (every arm's reward was computed once per query in phase 1; the bandit sees only the reward of the arm it plays); means over the orders:`);
  const runs: ReplayRun[] = Array.from({ length: seeds }, (_, seed) => replayBandit(items, armNames.length, { alpha, order: shuffledOrder(steps, seed + 1), safety }));
  const perDecision = { ...safety, window: 1 };
  const perDecisionRuns: ReplayRun[] = Array.from({ length: seeds }, (_, seed) => replayBandit(items, armNames.length, { alpha, order: shuffledOrder(steps, seed + 1), safety: perDecision }));
  const unitNoiseRuns: ReplayRun[] = Array.from({ length: seeds }, (_, seed) => replayBandit(items, armNames.length, { alpha, order: shuffledOrder(steps, seed + 1), safety, unitNoise: true }));
  const plainRuns: ReplayRun[] = Array.from({ length: seeds }, (_, seed) => replayBandit(items, armNames.length, { alpha, order: shuffledOrder(steps, seed + 1) }));
  const meanCurve = (curve: (run: ReplayRun) => readonly number[]) => Array.from({ length: steps }, (_, step) => meanOf(runs.map((run) => curve(run)[step])));
  const bandit = meanCurve((run) => run.bandit);
  const oracle = meanCurve((run) => run.oracle);
  const defaultCurve = meanCurve((run) => run.defaultPlan);
  const plainBandit = Array.from({ length: steps }, (_, step) => meanOf(plainRuns.map((run) => run.bandit[step])));
  const fixedCurves = armNames.map((_, arm) => meanCurve((run) => run.fixed[arm]));
  const best = fixedCurves.reduce((top, curve, arm) => (curve[steps - 1] > fixedCurves[top][steps - 1] ? arm : top), 0);
  const checkpoints = [...new Set([...Array.from({ length: 20 }, (_, index) => Math.max(1, Math.round(((index + 1) * steps) / 20)))])];
  printTable(
    ['step', 'bandit', 'plain LinUCB', 'default plan', ...armNames.map((name, arm) => (arm === best ? `${name} (best fixed)` : name)), 'oracle', 'regret vs oracle', 'bandit − best fixed'],
    checkpoints.map((step) => [
      String(step),
      fixed(bandit[step - 1]),
      fixed(plainBandit[step - 1]),
      fixed(defaultCurve[step - 1]),
      ...fixedCurves.map((curve) => fixed(curve[step - 1])),
      fixed(oracle[step - 1]),
      fixed(oracle[step - 1] - bandit[step - 1]),
      fixed(bandit[step - 1] - fixedCurves[best][step - 1]),
    ]),
  );

  const perSeed = runs.map((run) => overtakeStep(run.bandit, run.fixed[best]));
  const ahead = perSeed.filter((step) => step !== undefined) as number[];
  const meanOvertake = overtakeStep(bandit, fixedCurves[best]);
  console.log(`\nbest single fixed plan: ${armNames[best]} (${fixed(fixedCurves[best][steps - 1])}); bandit ${fixed(bandit[steps - 1])} (${fixed(bandit[steps - 1] - fixedCurves[best][steps - 1], 1)}), oracle ${fixed(oracle[steps - 1])}`);
  console.log(`mean curve: the bandit overtakes ${armNames[best]} for good at step ${meanOvertake ?? 'never'} of ${steps}`);
  console.log(`per order: ahead at the end in ${ahead.length}/${seeds}; overtake step median ${ahead.length ? ahead.sort((left, right) => left - right)[Math.floor(ahead.length / 2)] : '–'}`);

  console.log('\nbandit choices in the second half of each order, by set (all orders pooled):');
  const tally = new Map<string, number[]>(groups.map((group) => [group, new Array<number>(armNames.length).fill(0)]));
  runs.forEach((run, seed) => {
    const order = shuffledOrder(steps, seed + 1);
    order.forEach((index, step) => {
      if (step >= steps / 2) tally.get(items[index].group)![run.choices[step]] += 1;
    });
  });
  printTable(['set', ...armNames], groups.map((group) => {
    const counts = tally.get(group)!;
    const total = counts.reduce((sum, count) => sum + count, 0);
    return [group, ...counts.map((count) => `${fixed((100 * count) / total)} %`)];
  }));
  const windows = runs.map((run) => worstWindow(run.bandit, run.defaultPlan, windowSize));
  const plainWindows = plainRuns.map((run) => worstWindow(run.bandit, run.defaultPlan, windowSize));
  const worstOf = (list: readonly { gap: number }[]) => Math.min(...list.map((window) => window.gap));
  const worst = worstOf(windows);
  const final = bandit[steps - 1];
  const bestFixed = fixedCurves[best][steps - 1];
  console.log(`\ncumulative reward after ${steps} queries (mean over ${seeds} orders): safe bandit ${fixed(final, 2)}, best fixed plan (${armNames[best]}) ${fixed(bestFixed, 2)}, default plan ${fixed(defaultCurve[steps - 1], 2)}, plain LinUCB ${fixed(plainBandit[steps - 1], 2)}`);
  console.log(`worst ${windowSize}-query window, mean reward per query of the bandit − the default plan's (0 or above: never behind): safe bandit ${fixed(worst, 4)} (worst order; mean over orders of each order's worst ${fixed(meanOf(windows.map((window) => window.gap)), 4)}), plain LinUCB ${fixed(worstOf(plainWindows), 4)}; allowed: −${safety.margin}`);
  const perDecisionFinal = meanOf(perDecisionRuns.map((run) => run.bandit[steps - 1]));
  console.log(`per-decision safety instead (--safe-window 1: no plan whose lower bound is more than ${safety.margin} below the default's mean): cumulative ${fixed(perDecisionFinal, 2)}, worst window ${fixed(worstOf(perDecisionRuns.map((run) => worstWindow(run.bandit, run.defaultPlan, windowSize))), 4)}, explorations ${fixed(meanOf(perDecisionRuns.map((run) => run.explored)), 1)}`);
  console.log(`lower bounds as if the reward noise had σ = 1 instead (the rule before they were scaled by the estimated σ̂): cumulative ${fixed(meanOf(unitNoiseRuns.map((run) => run.bandit[steps - 1])), 2)}, worst window ${fixed(worstOf(unitNoiseRuns.map((run) => worstWindow(run.bandit, run.defaultPlan, windowSize))), 4)}, explorations ${fixed(meanOf(unitNoiseRuns.map((run) => run.explored)), 1)}`);
  console.log(`explorations (safe bandit): ${fixed(meanOf(runs.map((run) => run.explored)), 1)} of ${steps} decisions on average (budget ${Math.floor(safety.share * steps)})`);
  const rewardPass = final >= bestFixed;
  const windowPass = worst >= -safety.margin;
  const verdict = rewardPass && windowPass ? 'PASS' : 'FAIL';
  console.log(`\nacceptance (issue 16.2): cumulative reward ≥ best fixed plan's: ${rewardPass ? 'PASS' : 'FAIL'}; no ${windowSize}-query window below the default plan's by more than ${safety.margin}: ${windowPass ? 'PASS' : 'FAIL'} → ${verdict}`);

  const jsonPath = argument('--json');
  if (jsonPath) writeFileSync(jsonPath, `${JSON.stringify({ metric, latencyPenalty, latencyScaleMs, alpha, safety, seeds, arms: armNames, steps, bandit, plainBandit, defaultPlan: defaultCurve, oracle, fixed: fixedCurves, best: armNames[best], overtake: meanOvertake, aheadSeeds: ahead.length, worstWindow: worst, windowSize }, null, 1)}\n`);
  if (verdict === 'FAIL') process.exitCode = 1;
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
