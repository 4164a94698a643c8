import { describe, expect, it } from 'vitest';
import type { CompressedOutput } from '../ir/node-outputs';
import { analyzedCompression, compressionText } from './compression-text';

const output: CompressedOutput = {
  items: [],
  tokensBefore: 900,
  tokensAfter: 350,
  omitted: [
    { ref: 1, chunkId: 'chk_a', tokensRemoved: 300, why: '3 of 5 sentences off the goal dropped', sentences: [1, 3, 4] },
    { ref: 2, chunkId: 'chk_b', tokensRemoved: 250, why: '2 of 3 sentences off the goal dropped', sentences: [0, 2] },
  ],
  lineage: {
    method: 'sentence_select',
    derivedFrom: [
      { chunkId: 'chk_a', sourceName: 'wiki', sourceVersionId: 'ver_1', tokens: 500 },
      { chunkId: 'chk_b', sourceName: 'wiki', sourceVersionId: 'ver_1', tokens: 400 },
    ],
    refreshOn: [{ sourceName: 'wiki', sourceVersionId: 'ver_1' }],
  },
  storedAs: 'sum_1',
};

describe('EXPLAIN ANALYZE compression note', () => {
  it('says what was omitted, what it was derived from and when it goes stale', () => {
    expect(compressionText(analyzedCompression(output)!)).toBe(
      '[compressed 900 → 350 tokens: omitted 5 sentences from 2 chunks (550 tokens); derived from wiki@ver_1 (2 chunks); stale when any of these sources gets a new version; kept as sum_1]',
    );
  });

  it('says nothing for a compression that cut nothing (EXPLAIN of uncompressed runs unchanged)', () => {
    expect(analyzedCompression({ ...output, omitted: [] })).toBeUndefined();
  });
});
