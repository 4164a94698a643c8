/**
 * bench:answers --section verification (issue 15, point 4): how well verification that gates
 * separates bad answers from good ones. A loopback OpenAI-compatible model (a real HTTP server) is
 * scripted to answer every question correctly, wrongly (the cited passage's own words with its
 * figures changed or negated: lexical checks pass it), or without grounds (uncited, or citing an
 * item that does not exist), and to judge strictly (a cited sentence must stand in its passage).
 * Each run goes through the real runtime: plan, retrieval, the model call, the checks, the judge
 * node, the gate and the retry. Printed per kind: runs ending `unverified` (for bad answers: caught;
 * for good ones: wrongly failed), what the lexical checks alone caught, and what the judge added.
 * A fourth kind answers wrongly once, then correctly: the share the retry rescues.
 */
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { startLoopbackOpenAIServer } from '../../server/testing/loopback-openai-server';
import { openRuntimeFixture } from '../../server/testing/runtime-fixture';
import { isJudgeCall, scriptedAnswer, scriptedJudgement, type ScriptedKind } from '../../server/testing/scripted-answer-model';
import { readQuestionSet } from './answer-scoring';
import { ingestQuestionSet } from './question-set-ingest';

type Scenario = 'correct' | 'wrong' | 'ungrounded' | 'wrong_then_correct';
const SCENARIOS: readonly Scenario[] = ['wrong', 'ungrounded', 'correct', 'wrong_then_correct'];

interface RunTally {
  readonly scenario: Scenario;
  readonly question: string;
  readonly status: string;
  readonly attempts: number;
  readonly judgeCalls: number;
  readonly judgeRejected: number;
  readonly failedChecks: readonly string[];
}

const pct = (part: number, whole: number) => (whole === 0 ? '—' : `${((100 * part) / whole).toFixed(1)}%`);

export async function runVerificationSection(options: { readonly questions: string; readonly perKind: number; readonly json?: string }): Promise<void> {
  const server = await startLoopbackOpenAIServer();
  const fixture = await openRuntimeFixture({
    config: {
      // The scripted model is the tier every plan chooses (quality 0.9 over the extractive reader's 0.45); it judges too.
      models: { tiers: [{ name: 'model', provider: 'openai-compatible', base_url: server.baseURL, model: 'scripted', quality_prior: 0.9, input_usd_per_million: 1, output_usd_per_million: 2 }, { name: 'local', provider: 'extractive' }] },
      scheduler: { backoff_ms: 0 },
      // One plan per question: an explored plan (an LLM reranker) would send the scripted model calls it counts as answers.
      learning: { enabled: false },
    },
  });
  const tallies: RunTally[] = [];
  try {
    const questionsPath = resolve(options.questions);
    const set = readQuestionSet(questionsPath);
    await ingestQuestionSet(fixture, questionsPath, set);
    const started = performance.now();
    for (const scenario of SCENARIOS) {
      for (let index = 0; index < options.perKind; index++) {
        const question = set.questions[index % set.questions.length];
        const counts = { answers: 0, judges: 0, rejected: 0 };
        server.script((body) => {
          if (isJudgeCall(body)) {
            const text = scriptedJudgement(body);
            counts.judges += 1;
            if (text.startsWith('UNSUPPORTED')) counts.rejected += 1;
            return { text };
          }
          const kind: ScriptedKind = scenario === 'wrong_then_correct' ? (counts.answers === 0 ? 'wrong' : 'correct') : scenario;
          counts.answers += 1;
          return { text: scriptedAnswer(kind, body, index) };
        });
        const result = await fixture.runtime.run({ goal: question.question });
        tallies.push({ scenario, question: question.id, status: result.status, attempts: counts.answers, judgeCalls: counts.judges, judgeRejected: counts.rejected, failedChecks: (result.verification?.checks ?? []).filter((check) => !check.passed).map((check) => check.name) });
      }
    }
    const seconds = (performance.now() - started) / 1000;
    console.log(`\nverification effectiveness: ${tallies.length} runs over ${set.questions.length} questions of ${options.questions} in ${seconds.toFixed(1)} s (scripted loopback model, strict scripted judge, max_attempts 2)\n`);
    console.log('answers               runs  ended unverified  caught by checks alone  judge asked  judge said unsupported  attempts (mean)');
    for (const scenario of SCENARIOS) {
      const runs = tallies.filter((tally) => tally.scenario === scenario);
      const unverified = runs.filter((tally) => tally.status === 'unverified').length;
      // The judge is asked only when the lexical checks passed: a run with no judge call failed them on every attempt.
      const checksAlone = runs.filter((tally) => tally.status === 'unverified' && tally.judgeCalls === 0).length;
      const asked = runs.filter((tally) => tally.judgeCalls > 0).length;
      const rejected = runs.filter((tally) => tally.judgeRejected > 0).length;
      const attempts = runs.reduce((sum, tally) => sum + tally.attempts, 0) / Math.max(1, runs.length);
      console.log(`${scenario.padEnd(20)} ${String(runs.length).padStart(5)}  ${`${unverified} (${pct(unverified, runs.length)})`.padStart(16)}  ${`${checksAlone} (${pct(checksAlone, runs.length)})`.padStart(22)}  ${String(asked).padStart(11)}  ${String(rejected).padStart(22)}  ${attempts.toFixed(2).padStart(15)}`);
    }
    const bad = tallies.filter((tally) => tally.scenario === 'wrong' || tally.scenario === 'ungrounded');
    const good = tallies.filter((tally) => tally.scenario === 'correct');
    const rescued = tallies.filter((tally) => tally.scenario === 'wrong_then_correct');
    const caught = bad.filter((tally) => tally.status === 'unverified').length;
    const caughtByChecks = bad.filter((tally) => tally.status === 'unverified' && tally.judgeCalls === 0).length;
    const wronglyFailed = good.filter((tally) => tally.status === 'unverified').length;
    console.log(`\nbad answers caught (ended unverified): ${caught}/${bad.length} = ${pct(caught, bad.length)} (lexical checks alone: ${caughtByChecks}/${bad.length} = ${pct(caughtByChecks, bad.length)})`);
    console.log(`good answers wrongly failed: ${wronglyFailed}/${good.length} = ${pct(wronglyFailed, good.length)}`);
    console.log(`wrong first answers rescued by the retry (completed): ${rescued.filter((tally) => tally.status === 'completed').length}/${rescued.length} = ${pct(rescued.filter((tally) => tally.status === 'completed').length, rescued.length)}`);
    const failures = good.filter((tally) => tally.status === 'unverified');
    if (failures.length > 0) console.log(`wrongly failed good answers, by failing check: ${JSON.stringify(Object.fromEntries([...new Set(failures.flatMap((tally) => tally.failedChecks))].map((name) => [name, failures.filter((tally) => tally.failedChecks.includes(name)).length])))}`);
    if (options.json) writeFileSync(options.json, JSON.stringify({ questions: options.questions, runs: tallies }, null, 2));
  } finally {
    await fixture.close();
    await server.close();
  }
}
