import { describe, expect, it } from 'vitest';
import type { Hit, SourceKind } from '../types';
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
