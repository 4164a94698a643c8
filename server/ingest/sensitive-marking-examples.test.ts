/**
 * False positives of the ingest marking on the example corpora (issue 12, finding 5): every chunk
 * of examples/demo-incident, billing-pipeline and freight-data-platform, parsed as ingest parses
 * it and marked as ingest marks it (adapters/db/chunk-insert.ts). What may be marked: a commit's
 * author email, which is personal data. What must not: commit SHAs, UUIDs, request ids, epoch
 * timestamps, order numbers, systemd units, a connection string's user — each misfired once.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { markingOf } from '../adapters/db/chunk-insert';
import type { IngestChunk } from '../runtime/contracts/store';
import { detectSensitive } from '../runtime/policy/sensitive-content-detector';
import { materializeDemoGitRepo } from './demo-git-repo';
import { planIngest } from './ingest-path';
import { countWords } from './word-token-counter';

let workDir: string;
beforeAll(async () => {
  workDir = await mkdtemp(join(tmpdir(), 'sensitive-examples-'));
});
afterAll(async () => {
  await rm(workDir, { recursive: true, force: true });
});

/** Every chunk of one example corpus: its folders by kind, and its git history as a real repository. */
async function exampleChunks(corpus: string): Promise<{ kind: string; chunk: IngestChunk }[]> {
  const folder = resolve('examples', corpus);
  const repository = await materializeDemoGitRepo(join(workDir, corpus), { historyPath: join(folder, 'git-history.json') });
  const planned = await Promise.all(
    ['docs', 'logs', 'events', 'metrics']
      .map((name) => join(folder, name))
      .concat(repository.path)
      .map((path) => planIngest(path, { sourceName: 'example', countTokens: countWords }).catch(() => undefined)),
  );
  return planned.flatMap((plan) => plan?.sources.flatMap((source) => source.chunks.map((chunk) => ({ kind: source.kind, chunk }))) ?? []);
}

/** What the marking found in a chunk, as "kind:text". */
const findings = (chunk: IngestChunk): string[] => {
  const text = `${chunk.title}\n${chunk.text}`;
  return detectSensitive(text).map((match) => `${match.kind}:${text.slice(match.start, match.end)}`);
};

describe.each([
  // Chunk counts with the word token counter; the marked ones are every commit the corpus's history holds
  // and every lookup-only part of a commit cut to fit (freight's initial import: 15), each under its author line.
  ['demo-incident', 74, 7],
  ['billing-pipeline', 118, 12],
  ['freight-data-platform', 141, 33],
])('the ingest marking on examples/%s', (corpus, chunkCount, markedCount) => {
  it(`marks ${markedCount} of ${chunkCount} chunks: commits, for their author's email and nothing else`, async () => {
    const chunks = await exampleChunks(corpus);
    expect(chunks).toHaveLength(chunkCount);
    const marked = chunks.filter(({ chunk }) => markingOf(chunk).sensitive);
    expect(marked).toHaveLength(markedCount);
    for (const { kind, chunk } of marked) {
      expect(kind).toBe('git');
      const author = /^Author: .* <(.+)>$/m.exec(chunk.text)?.[1];
      expect(findings(chunk)).toEqual([`email:${author}`]);
    }
  }, 60_000);
});
