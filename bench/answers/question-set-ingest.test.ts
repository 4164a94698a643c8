import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RuntimeFixture } from '../../server/testing/runtime-fixture';
import type { QuestionSet } from './answer-scoring';
import { ingestQuestionSet, unrelatedNote } from './question-set-ingest';

let root: string;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'question-set-ingest-'));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

/** A fixture whose ingest records the folder each source was read from. */
function recordingFixture(ingested: Map<string, string>): RuntimeFixture {
  const runtime = { ingest: async (path: string, options: { source: string }) => (ingested.set(options.source, path), { sources: [{ source: options.source }] }) };
  return { root, runtime } as unknown as RuntimeFixture;
}

const FREIGHT = resolve('examples/freight-data-platform/questions.json');
const docsOnly = { sources: { 'kdp-docs': 'docs' }, questions: [], entityVocabulary: [] } as unknown as QuestionSet;

describe('ingesting a question set with an unrelated note (bench:answers --unrelated-note N)', () => {
  it("reads the docs from a copy holding the corpus's files and note N, and leaves the corpus alone", async () => {
    const ingested = new Map<string, string>();
    await ingestQuestionSet(recordingFixture(ingested), FREIGHT, docsOnly, { unrelatedNote: 2 });
    const folder = ingested.get('kdp-docs')!;
    expect(folder).not.toBe(resolve('examples/freight-data-platform/docs'));
    const corpusFiles = await readdir(resolve('examples/freight-data-platform/docs'));
    expect((await readdir(folder)).sort()).toEqual([...corpusFiles, 'zz-team-notes.md'].sort());
    expect(await readFile(join(folder, 'zz-team-notes.md'), 'utf8')).toBe(unrelatedNote(2));
    expect(corpusFiles).not.toContain('zz-team-notes.md');
  });

  it('reads the corpus folder itself without the flag, and each draw is another note', async () => {
    const ingested = new Map<string, string>();
    await ingestQuestionSet(recordingFixture(ingested), FREIGHT, docsOnly);
    expect(ingested.get('kdp-docs')).toBe(resolve('examples/freight-data-platform/docs'));
    expect(unrelatedNote(1)).not.toBe(unrelatedNote(2));
  });

  it('refuses a set with no docs source to add the note to', async () => {
    const logsOnly = { ...docsOnly, sources: { 'kdp-logs': 'logs' } } as unknown as QuestionSet;
    await expect(ingestQuestionSet(recordingFixture(new Map()), FREIGHT, logsOnly, { unrelatedNote: 1 })).rejects.toThrow('--unrelated-note adds a note to the docs source');
  });
});
