/**
 * Structural compression (the sidekick clip/dedup reducers of the reference architecture); the
 * query-aware sentence selection is in query-aware-compressor.ts. Lossy by design: every cut is returned in `omitted`
 * so the answer and EXPLAIN can say what the model never saw (principle #3).
 */
import { COMPRESSION_CONTRACT, type CompressionPlugin, type CompressionResult } from '../contracts/compression';
import type { CompressionMethod, ContextItem } from '../types';
import { splitSentences } from '../text/sentence-splitter';
import { queryAwareCompression } from './query-aware-compressor';

type Omission = CompressionResult['omitted'][number];

function finish(items: readonly ContextItem[], kept: ContextItem[], omitted: Omission[]): CompressionResult {
  return {
    items: kept,
    omitted,
    tokensBefore: items.reduce((sum, item) => sum + item.tokens, 0),
    tokensAfter: kept.reduce((sum, item) => sum + item.tokens, 0),
  };
}

/** Keeps each item's first `maxTokens` worth of sentences. */
function clipItem(item: ContextItem, maxTokens: number, countTokens: (text: string) => number): { item: ContextItem; removed: number } {
  if (item.tokens <= maxTokens) return { item, removed: 0 };
  const kept: string[] = [];
  let used = 0;
  for (const sentence of splitSentences(item.text)) {
    const cost = countTokens(sentence);
    if (used + cost > maxTokens && kept.length > 0) break;
    kept.push(sentence);
    used += cost;
  }
  const text = kept.join(' ');
  const tokens = countTokens(text);
  return { item: { ...item, text, tokens, compressed: true }, removed: item.tokens - tokens };
}

/** Per-item clip ceiling: long chunks mostly repeat their opening's topic (measured on the demo logs). */
const CLIP_MAX_TOKENS = 220;

export const noCompression: CompressionPlugin = {
  contract: COMPRESSION_CONTRACT,
  method: 'none',
  expectedRatio: 1,
  expectedLoss: 0,
  compress: (_goal, items) => finish(items, [...items], []),
};

export const clipCompression: CompressionPlugin = {
  contract: COMPRESSION_CONTRACT,
  method: 'clip',
  expectedRatio: 0.75,
  expectedLoss: 0.06,
  compress(_goal, items, countTokens) {
    const omitted: Omission[] = [];
    const kept = items.map((item) => {
      const clipped = clipItem(item, CLIP_MAX_TOKENS, countTokens);
      if (clipped.removed > 0) omitted.push({ ref: item.ref, chunkId: item.hit.chunkId, tokensRemoved: clipped.removed, why: `clipped to ${CLIP_MAX_TOKENS} tokens` });
      return clipped.item;
    });
    return finish(items, kept, omitted);
  },
};

/** Drops sentences already seen in a higher-ranked item (repeated log lines, duplicated runbook paragraphs), then clips. */
export const dedupClipCompression: CompressionPlugin = {
  contract: COMPRESSION_CONTRACT,
  method: 'dedup_clip',
  expectedRatio: 0.6,
  expectedLoss: 0.08,
  compress(goal, items, countTokens) {
    const seen = new Set<string>();
    const omitted: Omission[] = [];
    const deduped: ContextItem[] = [];
    for (const item of items) {
      const sentences = splitSentences(item.text).filter((sentence) => {
        const key = sentence.toLowerCase().replace(/\d+/g, '#').replace(/\s+/g, ' ');
        if (seen.has(key)) return false;
        seen.add(key);
        return true;
      });
      if (sentences.length === 0) {
        omitted.push({ ref: item.ref, chunkId: item.hit.chunkId, tokensRemoved: item.tokens, why: 'duplicate of higher-ranked evidence' });
        continue;
      }
      const text = sentences.join(' ');
      const tokens = countTokens(text);
      if (tokens < item.tokens) omitted.push({ ref: item.ref, chunkId: item.hit.chunkId, tokensRemoved: item.tokens - tokens, why: 'duplicate sentences removed' });
      deduped.push({ ...item, text, tokens, compressed: tokens < item.tokens });
    }
    const clipped = clipCompression.compress(goal, deduped, countTokens);
    return finish(items, [...clipped.items], [...omitted, ...clipped.omitted]);
  },
};

export const BUILTIN_COMPRESSIONS: readonly CompressionPlugin[] = [noCompression, clipCompression, dedupClipCompression, queryAwareCompression];

export function compressionFor(method: CompressionMethod, plugins: readonly CompressionPlugin[] = BUILTIN_COMPRESSIONS): CompressionPlugin {
  const plugin = plugins.find((candidate) => candidate.method === method);
  if (!plugin) throw new Error(`no compression plugin for method ${method}`);
  return plugin;
}
