/**
 * Answer quality on a corpus nobody tuned the runtime on (issue 10):
 *   npm run bench:answers [-- --questions examples/billing-pipeline/questions.json] [--split tune|heldout|dev|all] [--json out.json] [--verbose [--context]] [--only q01,q02] [--unrelated-note N]
 *     --unrelated-note N: the same run with note N, which no question is about, added to the docs source
 *     (bench/answers/question-set-ingest.ts); the questions that flip across N are the run's noise floor.
 *   npm run bench:answers -- --dataset musique|hotpotqa|<BEIR folder> [--split train] [--modes single_shot,decomposition,planner] [--fit-gains-from other-set.json]
 *        [--compression off,on,truncate] [--compression-budget 500] [--keep-share 0.25,0.35]   (bench/answers/compression-arms.ts)
 *   npm run bench:answers -- --section verification [--per-kind 30] [--questions …] [--json out.json]
 *   npm run bench:answers -- --section model-cache [--rounds 3]   (bench/answers/model-cache-section.ts)
 *   npm run bench:answers -- --section reproducibility [--runs 20] [--goals 4]   (bench/answers/reproducibility-section.ts)
 *   npm run bench:answers -- --section budget [--runs 100] [--deadline-runs 30]   (bench:budget, so every issue-15 figure is one command away)
 * Opens the real runtime on a fresh temporary embedded database (the demo corpus loads on start, as
 * on a first server start), ingests the question set's corpus beside it (its folders per source,
 * its git-history.json rebuilt into a repository), runs every question with `runtime.run` (offline
 * default reader, default constraints, every source readable) and scores each answer with
 * bench/answers/answer-scoring.ts.
 */
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { sql } from 'drizzle-orm';
import { openRuntimeFixture } from '../server/testing/runtime-fixture';
import { runDatasetAnswers } from './answers/dataset-answers';
import { parseArms } from './answers/compression-arms';
import { ingestQuestionSet } from './answers/question-set-ingest';
import { runVerificationSection } from './answers/verification-section';
import { runModelCacheSection } from './answers/model-cache-section';
import { runReproducibilitySection } from './answers/reproducibility-section';
import { type QuestionOutcome, offGoalCaveats, readQuestionSet, scoreCitations, scoreKeyFacts, scoreRunFacts, totals } from './answers/answer-scoring';

const { values } = parseArgs({
  options: {
    questions: { type: 'string', default: 'examples/billing-pipeline/questions.json' },
    split: { type: 'string', default: 'all' },
    json: { type: 'string' },
    verbose: { type: 'boolean', default: false },
    only: { type: 'string' },
    context: { type: 'boolean', default: false },
    'unrelated-note': { type: 'string' },
    dataset: { type: 'string' },
    modes: { type: 'string', default: 'single_shot,decomposition,planner' },
    limit: { type: 'string' },
    half: { type: 'string' },
    'fit-gains-from': { type: 'string' },
    section: { type: 'string' },
    'per-kind': { type: 'string', default: '30' },
    rounds: { type: 'string', default: '3' },
    // Its default is the section's: 20 for reproducibility, 100 for budget.
    runs: { type: 'string' },
    goals: { type: 'string', default: '4' },
    compression: { type: 'string', default: 'off' },
    'compression-budget': { type: 'string', default: '500' },
    'keep-share': { type: 'string' },
    'deadline-runs': { type: 'string', default: '30' },
  },
});
if (values.section === 'verification') {
  // Verification effectiveness with a scripted loopback model (bench/answers/verification-section.ts).
  await runVerificationSection({ questions: values.questions!, perKind: Number(values['per-kind']), json: values.json });
  process.exit(0);
}
if (values.section === 'model-cache') {
  await runModelCacheSection({ questionsPath: values.questions!, rounds: Number(values.rounds) });
  process.exit(0);
}
if (values.section === 'reproducibility') {
  await runReproducibilitySection({ questions: values.questions!, runs: Number(values.runs ?? 20), goals: Number(values.goals) });
  process.exit(0);
}
if (values.section === 'budget') {
  // Budgets at run time have their own bench (priced loopback tiers, deadlines); run here as it is.
  const budget = spawnSync(process.execPath, ['--import', 'tsx', fileURLToPath(new URL('./budget-bench.ts', import.meta.url)), '--runs', values.runs ?? '100', '--deadline-runs', values['deadline-runs']!, ...(values.json ? ['--json', values.json] : [])], { stdio: 'inherit' });
  process.exit(budget.status ?? 1);
}
if (values.section !== undefined) throw new Error(`--section must be verification, model-cache, reproducibility or budget, got ${values.section}`);
if (values.dataset) {
  // A BEIR-layout multi-hop set instead of a question set (bench/answers/dataset-answers.ts).
  await runDatasetAnswers({ dataset: values.dataset, split: values.split === 'all' ? 'train' : values.split!, modes: values.modes!.split(','), json: values.json, verbose: values.verbose!, ...(values.limit ? { limit: Number(values.limit) } : {}), ...(values.half === 'tune' || values.half === 'heldout' ? { half: values.half } : {}), ...(values['fit-gains-from'] ? { fitGainsFrom: values['fit-gains-from'] } : {}), compression: parseArms(values.compression!, values['keep-share']), armSettings: { budget: Number(values['compression-budget']) } });
  process.exit(0);
}
if (!['all', 'tune', 'heldout', 'dev'].includes(values.split!)) throw new Error('--split must be all, tune, heldout or dev');
const questionsPath = resolve(values.questions!);
const corpusFolder = dirname(questionsPath);
const set = readQuestionSet(questionsPath);
const onlyIds = values.only ? new Set(values.only.split(',')) : undefined;
const questions = set.questions.filter((question) => (values.split === 'all' || question.split === values.split) && (!onlyIds || onlyIds.has(question.id)));

const fixture = await openRuntimeFixture();
try {
  const started = performance.now();
  const draw = values['unrelated-note'] === undefined ? undefined : Number(values['unrelated-note']);
  if (draw !== undefined && !Number.isInteger(draw)) throw new Error(`--unrelated-note must be a whole number (which note to add), got ${values['unrelated-note']}`);
  await ingestQuestionSet(fixture, questionsPath, set, draw === undefined ? {} : { unrelatedNote: draw });
  console.log(`corpus ${corpusFolder} ingested beside the demo${draw === undefined ? '' : `, with unrelated note ${draw} in its docs,`} in ${((performance.now() - started) / 1000).toFixed(1)} s; ${questions.length} questions (split ${values.split})\n`);

  const uriOf = new Map((await fixture.database.query<{ id: string; uri: string }>(sql`select id, uri from chunks`)).map((row) => [row.id, row.uri]));
  const outcomes: (QuestionOutcome & { readonly reasoning: string; readonly attempts: number; readonly status: string; readonly question: string; readonly answer: string; readonly cited: readonly string[]; readonly caveats: readonly string[] })[] = [];
  for (const question of questions) {
    const result = await fixture.runtime.run({ goal: question.question });
    const answer = result.answer ?? '';
    const citations = result.citations.map((citation) => ({ sourceName: citation.sourceName, uri: uriOf.get(citation.chunkId) ?? '' }));
    const citationScore = scoreCitations(citations, question.relevant);
    const sentToApproval = result.status === 'awaiting_approval' || result.pendingApproval !== undefined;
    // Answer attempts that ran: more than one means the verification gate retried.
    const answerNodes = new Set(result.explain.graph.nodes.filter((node) => node.kind === 'reason' && node.purpose !== 'bridge').map((node) => node.id));
    const attempts = (result.explain.analyze?.nodes ?? []).filter((node) => answerNodes.has(node.nodeId) && node.status === 'done').length;
    const verification = result.status !== 'completed' ? result.status : result.verification ? `${result.verification.passed ? 'passed' : 'failed'} ${result.verification.confidence.toFixed(2)}` : 'none';
    // The context the answer was read from; a question the gate answers is not scored for it.
    const context = question.expectApproval ? undefined : (await fixture.runtime.evidence(result.runId)).map((item) => item.text).join('\n');
    outcomes.push({
      id: question.id,
      split: question.split,
      question: question.question,
      answer,
      cited: citations.map((citation) => `${citation.sourceName}:${citation.uri}`),
      caveats: result.caveats,
      keyFact: scoreRunFacts(answer, question, sentToApproval),
      ...(context === undefined ? {} : { factInContext: scoreKeyFacts(context, question.keyFacts).allFound }),
      citations: citationScore,
      offGoalCaveats: offGoalCaveats(result.caveats, question.question, question.entities, set.entityVocabulary),
      // Counted only where unwanted: a question that expects the gate is scored by scoreRunFacts.
      sentToApproval: sentToApproval && !question.expectApproval,
      verification,
      reasoning: result.explain.chosen.choice.reasoning,
      attempts,
      status: result.status,
      passedWithoutRelevantEvidence: verification.startsWith('passed') && citationScore.relevant === 0,
    });
    const outcome = outcomes[outcomes.length - 1];
    const missing = question.keyFacts.filter((_, index) => outcome.keyFact.matched[index] === undefined).map((aliases) => aliases[0]);
    console.log(
      `${question.id} [${question.split}/${question.kind}] fact ${outcome.keyFact.allFound ? 'yes' : `NO (missing: ${missing.join(', ')})`}${outcome.factInContext === undefined ? '' : ` · in context ${outcome.factInContext ? 'yes' : 'no'}`} · cited ${citationScore.relevant}/${citationScore.total} relevant (${citationScore.fromRelevantSource} from a relevant source) · off-goal caveats ${outcome.offGoalCaveats.length} · approval ${sentToApproval ? (question.expectApproval ? 'yes (expected)' : 'YES') : question.expectApproval ? 'NO (expected)' : 'no'} · verification ${verification}${attempts > 1 ? ` after ${attempts} attempts` : ''}`,
    );
    if (values.verbose) {
      console.log(`   Q: ${question.question}\n   A: ${answer.replace(/\s+/g, ' ').slice(0, process.env.ANSWER_CHARS ? Number(process.env.ANSWER_CHARS) : 600)}`);
      for (const cited of outcome.cited) console.log(`   cite ${cited}`);
      if (values.context) console.log(`   plan ${result.explain.chosen.description} intent ${JSON.stringify(result.explain.intent)} sources ${result.explain.selectedSources.join(', ')}; rejected ${result.explain.rejectedSources.map((rejected) => `${rejected.source}: ${rejected.detail}`).join('; ')}`);
      if (values.context) for (const item of await fixture.runtime.evidence(result.runId)) console.log(`   [${item.ref}] ${item.hit.sourceName}:${uriOf.get(item.hit.chunkId) ?? item.hit.chunkId} ${item.hit.locator ?? ""} via ${item.hit.method} rank ${item.hit.rank}: ${item.text.replace(/\s+/g, " ").slice(0, process.env.CONTEXT_CHARS ? Number(process.env.CONTEXT_CHARS) : 140)}`);
      for (const caveat of outcome.offGoalCaveats) console.log(`   off-goal caveat (${caveat.entities.join(', ')}): ${caveat.caveat.slice(0, 200)}`);
    }
  }

  const bySplit = Object.fromEntries(['all', 'tune', 'heldout', 'dev'].filter((split) => split === 'all' || outcomes.some((outcome) => outcome.split === split)).map((split) => [split, totals(outcomes.filter((outcome) => split === 'all' || outcome.split === split))]));
  console.log('\nsplit    questions  key fact  fact in context  relevant citations  from relevant sources  off-goal caveats  to approval  verification passed  passed w/o relevant evidence');
  for (const [split, total] of Object.entries(bySplit)) {
    if (total.questions === 0) continue;
    console.log(
      `${split.padEnd(8)} ${String(total.questions).padStart(9)}  ${`${total.keyFactPct}%`.padStart(8)}  ${`${total.factInContextPct}%`.padStart(15)}  ${`${total.relevantCitationPct}% of ${total.citations}`.padStart(18)}  ${`${total.relevantSourcePct}%`.padStart(21)}  ${String(total.offGoalCaveats).padStart(16)}  ${String(total.sentToApproval).padStart(11)}  ${String(total.verificationPassed).padStart(19)}  ${String(total.passedWithoutRelevantEvidence).padStart(28)}`,
    );
  }
  const reasoners = [...new Set(outcomes.map((outcome) => outcome.reasoning))];
  const retried = outcomes.filter((outcome) => outcome.attempts > 1);
  console.log(`\nverification gate: ${retried.length} run(s) retried (${retried.map((outcome) => `${outcome.id} ${outcome.attempts} attempts → ${outcome.status}`).join(', ') || 'none'}); ${outcomes.filter((outcome) => outcome.status === 'unverified').length} ended unverified`);
  console.log(`reasoner chosen: ${reasoners.map((reasoning) => `${reasoning} ×${outcomes.filter((outcome) => outcome.reasoning === reasoning).length}`).join(', ')}`);
  if (values.json) writeFileSync(values.json, JSON.stringify({ questionsPath, split: values.split, totals: bySplit, outcomes }, null, 2));
} finally {
  await fixture.close();
}
