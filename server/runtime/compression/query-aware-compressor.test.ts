import { describe, expect, it } from 'vitest';
import type { ContextItem } from '../types';
import { compressionLineage, lineageIsStale } from './compression-lineage';
import { compressForGoal, queryAwareCompression } from './query-aware-compressor';

const countTokens = (text: string) => text.split(/\s+/).filter(Boolean).length;

function item(ref: number, title: string, text: string, sourceName = 'wiki', sourceVersionId = 'ver_1'): ContextItem {
  return { ref, text, tokens: countTokens(text), compressed: false, hit: { chunkId: `chk_${ref}`, sourceName, sourceKind: 'docs', sourceVersionId, title, text, score: 1, rank: ref, method: 'bm25', tokens: countTokens(text) } };
}

const BRIDGE = item(1, 'Bubye River', 'The Bubye River is a tributary of the Limpopo River. It rises near the town of Mbalabala. Local farmers grow maize along the banks during the dry season every year. The river is about 250 kilometres long.');
const DISTRACTOR = item(2, 'Cascade Falls', 'Cascade Falls is a waterfall in a national park. Hikers reach it by a short trail from the car park. Many visitors swim in the pool below the falls in summer.');

describe('query-aware compression', () => {
  const goal = 'Which river is the Bubye River a tributary of?';

  it('keeps the sentences that bear on the goal and drops the rest, recording which', () => {
    const result = compressForGoal(goal, [BRIDGE, DISTRACTOR], countTokens, 0.4);
    expect(result.items[0].text).toContain('tributary of the Limpopo River');
    expect(result.items[0].text).not.toContain('maize');
    expect(result.tokensAfter).toBeLessThan(result.tokensBefore / 2);
    const cut = result.omitted.find((omission) => omission.chunkId === 'chk_1')!;
    expect(cut.sentences).toContain(2);
    expect(cut.tokensRemoved).toBe(BRIDGE.tokens - result.items[0].tokens);
  });

  it('keeps every item citable: its best sentence stays, refs and chunk ids unchanged, sentence order kept', () => {
    const result = compressForGoal(goal, [BRIDGE, DISTRACTOR], countTokens, 0.01);
    expect(result.items.map((kept) => [kept.ref, kept.hit.chunkId])).toEqual([[1, 'chk_1'], [2, 'chk_2']]);
    expect(result.items.every((kept) => kept.text.length > 0)).toBe(true);
    const wide = compressForGoal(goal, [BRIDGE], countTokens, 0.8).items[0].text;
    expect(wide.indexOf('tributary')).toBeLessThan(wide.indexOf('250 kilometres'));
  });

  it('leaves an item whole when every sentence fits the share', () => {
    const short = item(3, 'Limpopo', 'The Limpopo is a river.');
    const result = queryAwareCompression.compress(goal, [short], countTokens);
    expect(result.items[0]).toBe(short);
    expect(result.omitted).toEqual([]);
  });
});

describe('compression lineage', () => {
  it('names the chunks and source versions it was derived from, and turns stale when a source moves on', () => {
    const lineage = compressionLineage('sentence_select', [BRIDGE, item(4, 'Limpopo', 'The Limpopo rises in South Africa.', 'atlas', 'ver_a')]);
    expect(lineage.derivedFrom.map((entry) => [entry.chunkId, entry.sourceVersionId])).toEqual([['chk_1', 'ver_1'], ['chk_4', 'ver_a']]);
    expect(lineage.refreshOn).toEqual([{ sourceName: 'atlas', sourceVersionId: 'ver_a' }, { sourceName: 'wiki', sourceVersionId: 'ver_1' }]);
    expect(lineageIsStale(lineage, (name) => ({ wiki: 'ver_1', atlas: 'ver_a' })[name])).toBe(false);
    expect(lineageIsStale(lineage, (name) => ({ wiki: 'ver_2', atlas: 'ver_a' })[name])).toBe(true);
  });
});
