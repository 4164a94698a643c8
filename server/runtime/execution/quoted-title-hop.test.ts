import { describe, expect, it } from 'vitest';
import { createGraph, createNode } from '../ir/graph';
import type { Hit, SourceKind } from '../types';
import { createNodeExecutor, type ExecutionDependencies, type RetrievedOutput } from './node-executors';
import { followQuotedTitles, quotedTitles } from './quoted-title-hop';

const hit = (chunkId: string, sourceKind: SourceKind, text: string, rank = 1): Hit => ({
  chunkId, sourceName: `ops-${sourceKind}`, sourceKind, sourceVersionId: '1', title: chunkId, text, score: 10 - rank, rank, method: 'bm25', tokens: 30,
});

const timeline = hit('pm', 'docs', '- 14:02 — ops-infra change "Route print jobs through the new spooler pool" merged.\n- 14:10 — queue depth "NONE" reported; see "Fleet dashboard".');
const commits: Record<string, Hit[]> = {
  'Route print jobs through the new spooler pool': [
    hit('doc-echo', 'docs', 'We decided to route print jobs through the new spooler pool in Q3.'),
    hit('c1', 'git', 'commit 9f1e2d3\nAuthor: Ana Ruiz\n\n    Route print jobs through the new spooler pool\n\n    Pool B replaces prn-01.'),
  ],
};

describe('the quoted-title hop', () => {
  it('takes quoted titles of three words or more, best hit first, each once', () => {
    const second = hit('rb', 'docs', 'After "route print jobs through the new spooler pool" and "Drain prn-01 before patching", check the queue.', 2);
    expect(quotedTitles([timeline, second])).toEqual(['Route print jobs through the new spooler pool', 'Drain prn-01 before patching']);
  });

  it('finds the change record holding a quoted title verbatim, not a document repeating its words', async () => {
    const searched: (readonly string[])[] = [];
    const found = await followQuotedTitles([timeline], async (titles) => {
      searched.push(titles);
      return titles.map((title) => commits[title] ?? []);
    });
    expect(searched).toEqual([['Route print jobs through the new spooler pool']]);
    expect(found.map((entry) => [entry.chunkId, entry.rank])).toEqual([['c1', 1]]);
  });

  it('adds nothing when no change record holds the title', async () => {
    expect(await followQuotedTitles([timeline], async (titles) => titles.map(() => [hit('doc-echo', 'docs', 'Route print jobs through the new spooler pool, we said.')]))).toEqual([]);
  });

  it('searches nothing when the evidence quotes no title', async () => {
    let calls = 0;
    const plain = hit('log', 'logs', 'worker exited with code 137');
    expect(await followQuotedTitles([plain], async (titles) => { calls += 1; return titles.map(() => []); })).toEqual([]);
    expect(calls).toBe(0);
  });
});

describe('fusing the record a quoted title names', () => {
  const retrieve = (id: string, fields: { quotedTitlesFrom?: string; inputs?: string[] } = {}) =>
    createNode('retrieve', {
      id, inputs: fields.inputs ?? [], method: 'bm25', sources: ['ops'], sourceKinds: 'all', k: 10,
      retry: { maxAttempts: 1, backoffMs: 0 }, timeoutMs: 1000, estimate: { tokens: 0, costUsd: 0, latencySeconds: 0 }, ...(fields.quotedTitlesFrom ? { quotedTitlesFrom: fields.quotedTitlesFrom } : {}),
    });
  const fuse = createNode('fuse', { id: 'fuse', inputs: ['first', 'feedback', 'titles'], strategy: 'rrf', rrfK: 60, k: 3, estimate: { tokens: 0, costUsd: 0, latencySeconds: 0 } });
  const graph = (titlesNode: ReturnType<typeof retrieve>) => createGraph([retrieve('first'), retrieve('feedback'), titlesNode, fuse]);
  const dependencies = (graphOf: ReturnType<typeof graph>): ExecutionDependencies => ({
    goal: 'Which change broke printing?', identifiers: [], entities: [], retrievers: new Map(), router: undefined as never, reasoners: new Map(),
    compressions: new Map(), verifiers: new Map(), countTokens: (text) => text.length, modelTimeoutMs: 1000, graph: graphOf,
  });
  // Two searches share three log lines; the titles hop found the commit the postmortem names, second of its list.
  const logs = ['l1', 'l2', 'l3'].map((id, index) => hit(id, 'logs', `spooler error ${id}`, index + 1));
  const outputs = new Map<string, RetrievedOutput>([
    ['first', { hits: [timeline, ...logs], expansion: [] }],
    ['feedback', { hits: logs, expansion: [] }],
    ['titles', { hits: [hit('c0', 'git', 'commit 1', 1), hit('c1', 'git', 'commit 2', 2)], expansion: [] }],
  ]);
  const fused = async (titlesNode: ReturnType<typeof retrieve>) =>
    ((await createNodeExecutor(dependencies(graph(titlesNode)))(fuse, { attempt: 1, inputs: outputs, signal: new AbortController().signal })).output as RetrievedOutput).hits.map((entry) => entry.chunkId);

  it('counts the titles list twice, so a named record outranks lines two searches merely share', async () => {
    expect(await fused(retrieve('titles', { inputs: ['first'], quotedTitlesFrom: 'first' }))).toEqual(['c0', 'l1', 'c1']);
  });

  it('counts an ordinary retrieval once (the same lists without the quoted-title hop)', async () => {
    expect(await fused(retrieve('titles', { inputs: ['first'] }))).toEqual(['l1', 'l2', 'l3']);
  });
});
