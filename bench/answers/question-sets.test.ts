import { existsSync, readdirSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { materializeDemoGitRepo } from '../../server/ingest/demo-git-repo';
import { readQuestionSet } from './answer-scoring';

/**
 * Every examples/<corpus>/questions.json must point at evidence that exists: a citation can only
 * match a relevant entry whose file is in the corpus folder and whose commit is in the rebuilt
 * history. Commit SHAs hash the whole history, so editing git-history.json silently breaks the
 * "commit abc1234" entries of the questions; this catches it.
 */

const examples = resolve(__dirname, '../../examples');
// Each corpus's question set, and a helper's dev set beside it (examples/freight-data-platform/dev-questions.json).
const corpora = readdirSync(examples).flatMap((name) => ['questions.json', 'dev-questions.json'].filter((file) => existsSync(join(examples, name, file))).map((file) => `${name}/${file}`));
const folderOf = (kind: string) => (kind === 'docs' ? 'docs' : kind);

let workDir: string;
beforeAll(async () => {
  workDir = await mkdtemp(join(tmpdir(), 'question-sets-'));
});
afterAll(async () => {
  await rm(workDir, { recursive: true, force: true });
});

describe.each(corpora)('question set examples/%s', (setPath) => {
  const corpus = dirname(setPath);
  const folder = join(examples, corpus);
  const set = readQuestionSet(join(examples, setPath));

  it('has unique ids and only declared sources', () => {
    expect(new Set(set.questions.map((question) => question.id)).size).toBe(set.questions.length);
    for (const question of set.questions) for (const relevant of question.relevant) expect(Object.keys(set.sources)).toContain(relevant.source);
  });

  it('names only files of the corpus and commits of its history', async () => {
    const needsGit = Object.values(set.sources).includes('git');
    const commits = needsGit ? (await materializeDemoGitRepo(join(workDir, setPath.replace(/[/.]/g, '-')), { historyPath: join(folder, 'git-history.json') })).commits.map((commit) => commit.sha) : [];
    const missing: string[] = [];
    for (const question of set.questions) {
      for (const relevant of question.relevant) {
        if (relevant.uri === undefined) continue;
        const kind = set.sources[relevant.source];
        const found =
          kind === 'git'
            ? commits.some((sha) => `commit ${sha}`.includes(relevant.uri!))
            : existsSync(join(folder, folderOf(kind))) && readdirSync(join(folder, folderOf(kind))).some((file) => file.includes(relevant.uri!));
        if (!found) missing.push(`${question.id} ${relevant.source} ${relevant.uri}`);
      }
    }
    expect(missing).toEqual([]);
  }, 60_000);
});

describe('the freight-data-platform set (first run all held out, then split by id parity)', () => {
  it('has at least 20 questions: odd ids tune, even ids held out (bench/answers/RESULTS.md)', () => {
    const set = readQuestionSet(join(examples, 'freight-data-platform', 'questions.json'));
    expect(set.questions.length).toBeGreaterThanOrEqual(20);
    for (const question of set.questions) expect([question.id, question.split]).toEqual([question.id, Number(question.id.slice(1)) % 2 === 1 ? 'tune' : 'heldout']);
  });
});
