import { cp, mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { materializeDemoGitRepo } from '../../server/ingest/demo-git-repo';
import type { RuntimeFixture } from '../../server/testing/runtime-fixture';
import type { QuestionSet } from './answer-scoring';

/**
 * A note no question can be about, for `--unrelated-note N`: ingested into the set's docs source, it
 * changes that source's version (so its chunk ids, which break fusion's ties) and the corpus's term
 * statistics, and nothing else. Each N is another note, so another draw of the ties. The questions
 * whose key fact flips across draws are the bench's noise floor: a change that moves one or two of
 * them has not been shown to matter.
 */
export const unrelatedNote = (draw: number): string => `# Team notes\n\nThe team lunch is on Fridays at noon in the canteen (note ${draw}).\n`;

export interface QuestionSetIngestOptions {
  /** Adds unrelatedNote(draw) to the docs source (a copy of the folder; the example corpus is not touched). */
  readonly unrelatedNote?: number;
}

/** The docs folder as ingested: the corpus's own, or a copy with the unrelated note beside it. */
async function docsFolder(fixture: RuntimeFixture, corpusFolder: string, draw: number | undefined): Promise<string> {
  if (draw === undefined) return join(corpusFolder, 'docs');
  const copy = join(fixture.root, 'docs-with-unrelated-note');
  await mkdir(copy, { recursive: true });
  await cp(join(corpusFolder, 'docs'), copy, { recursive: true });
  await writeFile(join(copy, 'zz-team-notes.md'), unrelatedNote(draw));
  return copy;
}

/** Ingests a question set's corpus beside the demo: its folders per source, its git-history.json rebuilt into a repository. */
export async function ingestQuestionSet(fixture: RuntimeFixture, questionsPath: string, set: QuestionSet, options: QuestionSetIngestOptions = {}): Promise<void> {
  const corpusFolder = dirname(questionsPath);
  if (options.unrelatedNote !== undefined && !Object.values(set.sources).includes('docs')) throw new Error(`--unrelated-note adds a note to the docs source, and ${questionsPath} has none`);
  for (const [source, kind] of Object.entries(set.sources)) {
    const path =
      kind === 'git'
        ? (await materializeDemoGitRepo(join(fixture.root, `${source}-repo`), { historyPath: join(corpusFolder, 'git-history.json') })).path
        : kind === 'docs'
          ? await docsFolder(fixture, corpusFolder, options.unrelatedNote)
          : join(corpusFolder, kind);
    const { sources: results } = await fixture.runtime.ingest(path, { source });
    if (results.length !== 1 || results[0].source !== source) throw new Error(`ingesting ${path} as ${source} gave ${results.map((result) => result.source).join(', ')}`);
  }
}
