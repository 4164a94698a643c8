import { dirname, join } from 'node:path';
import { materializeDemoGitRepo } from '../../server/ingest/demo-git-repo';
import type { RuntimeFixture } from '../../server/testing/runtime-fixture';
import type { QuestionSet } from './answer-scoring';

/** Ingests a question set's corpus beside the demo: its folders per source, its git-history.json rebuilt into a repository. */
export async function ingestQuestionSet(fixture: RuntimeFixture, questionsPath: string, set: QuestionSet): Promise<void> {
  const corpusFolder = dirname(questionsPath);
  for (const [source, kind] of Object.entries(set.sources)) {
    const path = kind === 'git' ? (await materializeDemoGitRepo(join(fixture.root, `${source}-repo`), { historyPath: join(corpusFolder, 'git-history.json') })).path : join(corpusFolder, kind === 'docs' ? 'docs' : kind);
    const { sources: results } = await fixture.runtime.ingest(path, { source });
    if (results.length !== 1 || results[0].source !== source) throw new Error(`ingesting ${path} as ${source} gave ${results.map((result) => result.source).join(', ')}`);
  }
}
