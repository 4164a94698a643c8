import { describe, expect, it } from 'vitest';
import type { NodeOutcome } from '../../runtime/contracts/scheduler';
import type { ContextItem, Hit } from '../../runtime/types';
import { compactOutcome, restoreOutcomes } from './outcome-passages';

const CHUNKS = new Map([
  ['c1', 'checkout-api OOMKilled at the 256Mi limit'],
  ['c2', 'commit 48d4188 lowered the memory limit'],
]);
const reads: string[][] = [];
const chunkTexts = async (ids: readonly string[]) => {
  reads.push([...ids]);
  return new Map(ids.flatMap((id) => (CHUNKS.has(id) ? [[id, CHUNKS.get(id)!] as const] : [])));
};

const hit = (chunkId: string, text = CHUNKS.get(chunkId) ?? 'not stored'): Hit => ({ chunkId, sourceName: 'demo-logs', sourceKind: 'logs', sourceVersionId: 'v1', title: 't', text, score: 1, rank: 1, method: 'bm25', tokens: 9 });
const item = (passage: Hit, text = passage.text): ContextItem => ({ ref: 1, hit: passage, text, tokens: 9, compressed: text !== passage.text });
const outcome = (output: unknown): NodeOutcome => ({ output, actual: { tokens: 9, costUsd: 0, latencySeconds: 0.01 } });

describe('node outcomes keep passages as chunk references', () => {
  it('leaves out the text the store holds under the same chunk id, and restores it', async () => {
    const retrieved = outcome({ hits: [hit('c1'), hit('c2')], expansion: ['oom'] });
    const stored = await compactOutcome(retrieved, chunkTexts);
    expect(JSON.stringify(stored)).not.toContain('OOMKilled');
    expect((stored.output as { hits: object[] }).hits[0]).not.toHaveProperty('text');
    expect(stored.output).toMatchObject({ expansion: ['oom'], hits: [{ chunkId: 'c1', sourceName: 'demo-logs' }, { chunkId: 'c2' }] });
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

  it('passes other outputs through untouched, and reads nothing when no text was left out', async () => {
    const reasoned = outcome({ answer: 'OOMKilled [1]', citations: [{ ref: 1, chunkId: 'c1', sourceName: 'demo-logs', quote: 'OOMKilled' }], modelCalls: [] });
    expect(await compactOutcome(reasoned, chunkTexts)).toBe(reasoned);
    reads.length = 0;
    const outcomes = new Map([['reason', reasoned]]);
    expect(await restoreOutcomes(outcomes, chunkTexts)).toBe(outcomes);
    expect(reads).toEqual([]);
  });
});
