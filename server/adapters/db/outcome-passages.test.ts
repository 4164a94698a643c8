import { describe, expect, it } from 'vitest';
import type { NodeOutcome } from '../../runtime/contracts/scheduler';
import type { ContextItem, Hit } from '../../runtime/types';
import { compactOutcome, restoreOutcomes, type StoredChunk } from './outcome-passages';

const stored = (text: string, locator?: string): StoredChunk => ({ text, sourceName: 'demo-logs', sourceKind: 'logs', sourceVersionId: 'v1', title: 't', ...(locator ? { locator } : {}), tokens: 9 });
const CHUNKS = new Map([
  ['c1', stored('checkout-api OOMKilled at the 256Mi limit', 'lines 64–68')],
  ['c2', stored('commit 48d4188 lowered the memory limit')],
]);
const reads: string[][] = [];
const chunkTexts = async (ids: readonly string[]) => {
  reads.push([...ids]);
  return new Map(ids.flatMap((id) => (CHUNKS.has(id) ? [[id, CHUNKS.get(id)!] as const] : [])));
};

const hit = (chunkId: string, text = CHUNKS.get(chunkId)?.text ?? 'not stored'): Hit => ({
  chunkId, sourceName: 'demo-logs', sourceKind: 'logs', sourceVersionId: 'v1', title: 't', text, score: 1, rank: 1, method: 'bm25', tokens: 9, ...(CHUNKS.get(chunkId)?.locator ? { locator: CHUNKS.get(chunkId)!.locator } : {}),
});
const item = (passage: Hit, text = passage.text): ContextItem => ({ ref: 1, hit: passage, text, tokens: 9, compressed: text !== passage.text });
const outcome = (output: unknown): NodeOutcome => ({ output, actual: { tokens: 9, costUsd: 0, latencySeconds: 0.01 } });

describe('node outcomes keep passages as chunk references', () => {
  it('leaves out the text the store holds under the same chunk id, and restores it', async () => {
    const retrieved = outcome({ hits: [hit('c1'), hit('c2')], expansion: ['oom'] });
    const stored = await compactOutcome(retrieved, chunkTexts);
    expect(JSON.stringify(stored)).not.toContain('OOMKilled');
    // What the chunk repeats goes too; what the retrieval decided (score, rank, method) stays.
    expect((stored.output as { hits: object[] }).hits).toEqual([
      { chunkId: 'c1', score: 1, rank: 1, method: 'bm25' },
      { chunkId: 'c2', score: 1, rank: 1, method: 'bm25' },
    ]);
    expect(stored.output).toMatchObject({ expansion: ['oom'] });
    const restored = await restoreOutcomes(new Map([['retrieve', stored]]), chunkTexts);
    expect(restored.get('retrieve')).toEqual(retrieved);
  });

  it('keeps text that differs from the stored chunk (redacted, or a chunk the store lacks) and a compressed item’s own text', async () => {
    const redacted = hit('c1', 'checkout-api [REDACTED]');
    const foreign = hit('c9');
    const assembled = outcome({ items: [item(hit('c2')), item(hit('c1'), 'OOMKilled (compressed)'), item(redacted), item(foreign)], tokens: 36 });
    const stored = await compactOutcome(assembled, chunkTexts);
    const items = (stored.output as { items: Record<string, unknown>[] }).items;
    expect(items[0]).not.toHaveProperty('text');
    expect(items[0].hit).not.toHaveProperty('text');
    expect(items[1].text).toBe('OOMKilled (compressed)');
    expect(items[2].hit).toMatchObject({ text: 'checkout-api [REDACTED]' });
    expect(items[3].hit).toMatchObject({ text: 'not stored' });
    expect((await restoreOutcomes(new Map([['assemble', stored]]), chunkTexts)).get('assemble')).toEqual(assembled);
  });

  it('keeps every repeated field of a hit that differs from its chunk in any (another version, another title)', async () => {
    const otherVersion = { ...hit('c1'), sourceVersionId: 'v0' };
    const retrieved = outcome({ hits: [otherVersion] });
    const kept = (await compactOutcome(retrieved, chunkTexts)).output as { hits: Record<string, unknown>[] };
    expect(kept.hits[0]).toMatchObject({ sourceName: 'demo-logs', sourceVersionId: 'v0', title: 't', locator: 'lines 64–68', tokens: 9 });
    expect(kept.hits[0]).not.toHaveProperty('text');
    expect((await restoreOutcomes(new Map([['retrieve', { ...retrieved, output: kept }]]), chunkTexts)).get('retrieve')).toEqual(retrieved);
  });

  it('passes other outputs through untouched, and reads nothing when no text was left out', async () => {
    const reasoned = outcome({ answer: 'OOMKilled [1]', citations: [{ ref: 1, chunkId: 'c1', sourceName: 'demo-logs', quote: 'OOMKilled' }], modelCalls: [] });
    expect(await compactOutcome(reasoned, chunkTexts)).toBe(reasoned);
    reads.length = 0;
    const outcomes = new Map([['reason', reasoned]]);
    expect(await restoreOutcomes(outcomes, chunkTexts)).toBe(outcomes);
    expect(reads).toEqual([]);
  });
});
