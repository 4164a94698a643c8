/**
 * bench:answers --section reproducibility (issue 15 acceptance): the same request run N times gives
 * one plan hash. Run on the billing-pipeline corpus beside the demo with the default config (plan
 * cache on, learning on), then with the plan cache off so every run plans afresh. Learning stays on
 * in both: the bandit may explore (an optimistic arm that is not the greedy one); such runs are
 * marked in EXPLAIN (`learning.explored`) and counted apart, since exploring is their purpose.
 * Learned-v2's estimates also move as observations accumulate, which a plan hash would show.
 */
import { resolve } from 'node:path';
import { openRuntimeFixture } from '../../server/testing/runtime-fixture';
import { readQuestionSet } from './answer-scoring';
import { ingestQuestionSet } from './question-set-ingest';

interface Setting {
  readonly name: string;
  readonly config: Record<string, unknown>;
}

const SETTINGS: readonly Setting[] = [
  { name: 'default (plan cache on, learning on)', config: {} },
  { name: 'plan cache off, learning on', config: { plan_cache: { enabled: false } } },
];

export async function runReproducibilitySection(options: { readonly questions: string; readonly runs: number; readonly goals: number }): Promise<void> {
  const questionsPath = resolve(options.questions);
  const set = readQuestionSet(questionsPath);
  // The demo question and the first question of each kind, so the check spans intent classes.
  const kinds = [...new Set(set.questions.map((question) => question.kind))];
  const goals = ['Explain why deployment checkout-api failed', ...kinds.map((kind) => set.questions.find((question) => question.kind === kind)!.question)].slice(0, options.goals);
  console.log(`reproducibility: ${goals.length} goals × ${options.runs} runs per setting, ${set.questions.length}-question corpus ${questionsPath} beside the demo\n`);
  console.log('setting                                 goal                                                  runs  plan hashes  explored  hashes w/o explored  plan-cache hits');
  for (const setting of SETTINGS) {
    // A fresh database per setting: the second setting does not inherit the first's cache or learning.
    const fixture = await openRuntimeFixture({ config: setting.config });
    try {
      await ingestQuestionSet(fixture, questionsPath, set);
      for (const goal of goals) {
        const runs: { hash: string; explored: boolean; cacheHit: boolean }[] = [];
        for (let index = 0; index < options.runs; index++) {
          const result = await fixture.runtime.run({ goal });
          runs.push({ hash: result.explain.planHash, explored: result.explain.learning?.explored === true, cacheHit: result.explain.planCache.status === 'hit' });
        }
        const hashes = new Set(runs.map((run) => run.hash));
        const greedy = new Set(runs.filter((run) => !run.explored).map((run) => run.hash));
        console.log(
          `${setting.name.padEnd(38)}  ${goal.slice(0, 52).padEnd(52)}  ${String(runs.length).padStart(4)}  ${String(hashes.size).padStart(11)}  ${String(runs.filter((run) => run.explored).length).padStart(8)}  ${String(greedy.size).padStart(19)}  ${String(runs.filter((run) => run.cacheHit).length).padStart(15)}`,
        );
      }
    } finally {
      await fixture.close();
    }
  }
}
