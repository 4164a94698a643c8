/**
 * `npm run bench:answers -- --section model-cache [--rounds 3]` (issue 15 point 6): the model-context
 * cache over a repeated workload. The real runtime on a fresh embedded database, the billing-pipeline
 * corpus beside the demo, and a priced OpenAI-compatible tier on a loopback HTTP server that counts
 * every request: a hit must never reach it. Prints
 *   1. the repeated workload: every question of the set, `rounds` times — hit rate, loopback
 *      requests against misses (equal when no hit reached the server), tokens and dollars saved;
 *   2. invalidation: a new version of billing-docs is ingested, then every question whose context
 *      held billing-docs passages runs again — hits served on those calls (must be 0) and cache
 *      rows still holding the old version (must be 0);
 *   3. the planner's cache term for the loopback model before and after (measured vs prior).
 */
import { appendFileSync, cpSync, readdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { sql } from 'drizzle-orm';
import type { RunResult } from '../../server/runtime';
import { materializeDemoGitRepo } from '../../server/ingest/demo-git-repo';
import { startLoopbackOpenAIServer } from '../../server/testing/loopback-openai-server';
import { openRuntimeFixture, type RuntimeFixture } from '../../server/testing/runtime-fixture';
import { readQuestionSet } from './answer-scoring';

const CHANGED_SOURCE = 'billing-docs';

interface Tally { runs: number; calls: number; hits: number; misses: number; uncached: number; savedTokens: number; savedCostUsd: number; spentTokens: number; providerCached: number; loopbackRequests: number }
const emptyTally = (): Tally => ({ runs: 0, calls: 0, hits: 0, misses: 0, uncached: 0, savedTokens: 0, savedCostUsd: 0, spentTokens: 0, providerCached: 0, loopbackRequests: 0 });

function modelCallsOf(result: RunResult) {
  return (result.explain.analyze?.nodes ?? []).filter((node) => node.kind === 'reason').flatMap((node) => node.modelCalls ?? []);
}

/** The loopback model's reply names its generation: a reply made before the source changed carries the first. */
const REPLY = 'The billing pipeline failed as the cited evidence shows [1].';
const replyOfGeneration = (generation: number) => `${REPLY} (reply generation ${generation})`;

/**
 * Stale hits of a run: reason nodes answered from the cache whose context (an input's assembled
 * items) holds a passage of `source` and whose answer is a reply made before `source` changed. A
 * decomposing plan's first call reads only its first hop's context, so a run's final evidence
 * says nothing about it; and a hit on an entry written after the change is no stale answer.
 */
async function staleHits(fixture: RuntimeFixture, result: RunResult, source: string): Promise<{ readonly onContext: number; readonly stale: number }> {
  const record = await fixture.plugins.runStore.loadRun(result.runId);
  let onContext = 0;
  let stale = 0;
  for (const node of result.explain.analyze?.nodes ?? []) {
    const served = (node.modelCalls ?? []).filter((call) => call.cache === 'hit').length;
    if (node.kind !== 'reason' || served === 0) continue;
    const inputs = result.explain.graph.nodes.find((graphNode) => graphNode.id === node.nodeId)?.inputs ?? [];
    const holds = inputs.some((input) => ((record?.nodeOutcomes.get(input)?.output as { items?: { hit: { sourceName: string } }[] } | undefined)?.items ?? []).some((item) => item.hit.sourceName === source));
    if (!holds) continue;
    onContext += served;
    if (JSON.stringify(record?.nodeOutcomes.get(node.nodeId)?.output ?? '').includes(replyOfGeneration(1))) stale += served;
  }
  return { onContext, stale };
}

function add(tally: Tally, result: RunResult, requests: number): void {
  tally.runs++;
  tally.loopbackRequests += requests;
  const reasons = (result.explain.analyze?.nodes ?? []).filter((node) => node.kind === 'reason');
  tally.spentTokens += reasons.reduce((sum, node) => sum + (node.actual?.tokens ?? 0), 0);
  for (const call of modelCallsOf(result)) {
    tally.calls++;
    if (call.cache === 'hit') {
      tally.hits++;
      tally.savedTokens += call.savedTokens ?? 0;
    } else if (call.cache === 'miss') tally.misses++;
    else tally.uncached++;
    tally.providerCached += call.providerCachedInputTokens ?? 0;
  }
}

const pct = (part: number, whole: number) => (whole === 0 ? 'n/a' : `${((100 * part) / whole).toFixed(1)}%`);

function printTally(label: string, tally: Tally): void {
  console.log(
    `${label.padEnd(22)} runs ${String(tally.runs).padStart(4)}  model calls ${String(tally.calls).padStart(4)}  hits ${String(tally.hits).padStart(4)}  misses ${String(tally.misses).padStart(4)}  hit rate ${pct(tally.hits, tally.hits + tally.misses).padStart(6)}  loopback requests ${String(tally.loopbackRequests).padStart(4)}  tokens spent ${String(tally.spentTokens).padStart(7)}  saved ${String(tally.savedTokens).padStart(7)}  provider-cached input ${tally.providerCached}`,
  );
}

async function ingestCorpus(fixture: RuntimeFixture, questionsPath: string): Promise<{ readonly docsFolder: string; readonly questions: readonly string[] }> {
  const set = readQuestionSet(questionsPath);
  // A copy, so the invalidation step can change a file without touching the repository's examples.
  const corpus = join(fixture.root, 'corpus');
  cpSync(dirname(questionsPath), corpus, { recursive: true });
  for (const [source, kind] of Object.entries(set.sources)) {
    const path = kind === 'git' ? (await materializeDemoGitRepo(join(fixture.root, `${source}-repo`), { historyPath: join(corpus, 'git-history.json') })).path : join(corpus, kind === 'docs' ? 'docs' : kind);
    await fixture.runtime.ingest(path, { source });
  }
  return { docsFolder: join(corpus, 'docs'), questions: set.questions.map((question) => question.question) };
}

export async function runModelCacheSection(options: { readonly questionsPath: string; readonly rounds: number }): Promise<void> {
  if (!Number.isInteger(options.rounds) || options.rounds < 2) throw new Error(`--rounds must be an integer of at least 2 (a first round fills the cache), got ${options.rounds}`);
  const server = await startLoopbackOpenAIServer({ text: replyOfGeneration(1) });
  const fixture = await openRuntimeFixture({
    config: {
      models: {
        tiers: [
          // Priced and preferred (quality 0.9), so the planner sends every answer to the loopback server.
          { name: 'cheap', provider: 'openai-compatible', base_url: server.baseURL, model: 'loop-1', quality_prior: 0.9, input_usd_per_million: 1, output_usd_per_million: 2 },
          { name: 'local', provider: 'extractive' },
        ],
      },
      model_cache: { enabled: true, ttl_seconds: 3600 },
    },
  });
  try {
    const started = performance.now();
    const { docsFolder, questions } = await ingestCorpus(fixture, resolve(options.questionsPath));
    console.log(`model-context cache: ${questions.length} questions × ${options.rounds} rounds, corpus ingested in ${((performance.now() - started) / 1000).toFixed(1)} s; loopback tier cheap (loop-1), model_cache ttl 3600 s\n`);
    const termBefore = (await fixture.runtime.explain({ goal: questions[0] })).chosen.estimates.cacheHit.value;

    const rounds: Tally[] = [];
    const total = emptyTally();
    const contextSources = new Map<string, readonly string[]>();
    for (let round = 1; round <= options.rounds; round++) {
      const tally = emptyTally();
      for (const goal of questions) {
        const before = server.calls.length;
        const result = await fixture.runtime.run({ goal });
        const requests = server.calls.length - before;
        add(tally, result, requests);
        add(total, result, requests);
        if (round === 1) contextSources.set(goal, [...new Set((await fixture.runtime.evidence(result.runId)).map((item) => item.hit.sourceName))]);
      }
      rounds.push(tally);
      printTally(`round ${round}`, tally);
    }
    printTally('repeated workload', total);
    console.log(`hits that reached the loopback server: ${total.loopbackRequests - total.misses - total.uncached} (loopback requests − calls that missed or bypassed the cache)`);

    // Invalidation: a new version of one source every cached answer of which must stop being served.
    const docs = readdirSync(docsFolder).filter((name) => name.endsWith('.md'));
    appendFileSync(join(docsFolder, docs[0]), '\n\nRevision note: this page was updated after the incident review.\n');
    const oldVersion = (await fixture.runtime.sources()).find((source) => source.name === CHANGED_SOURCE)?.versionId;
    await fixture.runtime.ingest(docsFolder, { source: CHANGED_SOURCE });
    const newVersion = (await fixture.runtime.sources()).find((source) => source.name === CHANGED_SOURCE)?.versionId;
    const [{ stale }] = await fixture.database.query<{ stale: number }>(sql`select count(*)::int as stale from model_cache where source_versions @> ${JSON.stringify([{ name: CHANGED_SOURCE, versionId: oldVersion }])}::jsonb`);
    const affected = questions.filter((goal) => contextSources.get(goal)?.includes(CHANGED_SOURCE));
    const after = emptyTally();
    server.reply({ text: replyOfGeneration(2) });
    let hitsOnChangedContext = 0;
    let servedStale = 0;
    for (const goal of affected) {
      const before = server.calls.length;
      const result = await fixture.runtime.run({ goal });
      add(after, result, server.calls.length - before);
      const hits = await staleHits(fixture, result, CHANGED_SOURCE);
      hitsOnChangedContext += hits.onContext;
      servedStale += hits.stale;
    }
    console.log(`\ninvalidation: ${CHANGED_SOURCE} ${oldVersion} → ${newVersion}; ${affected.length} of ${questions.length} questions had its passages in context`);
    printTally('after the change', after);
    console.log(`hits on a call whose context held ${CHANGED_SOURCE} after it changed: ${hitsOnChangedContext}, of them answers made before the change: ${servedStale}; cache rows still holding the old version: ${stale}`);

    const termAfter = (await fixture.runtime.explain({ goal: questions[0] })).chosen.estimates.cacheHit.value;
    console.log(`\nPlanScore cache term for loop-1 on "${questions[0].slice(0, 60)}": ${termBefore.toFixed(3)} before the workload (prior) → ${termAfter.toFixed(3)} after (measured, shrunk to the prior)`);
  } finally {
    await fixture.close();
    await server.close();
  }
}
