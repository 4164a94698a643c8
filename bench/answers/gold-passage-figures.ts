/**
 * Per-question figures against a multi-hop set's gold passages (its qrels): citation precision and
 * recall, and where the answer's gold passage sits in the assembled context (lost in the middle: Liu
 * et al. 2023 found readers use evidence at the start and end of a long context better than in its
 * middle).
 */
import { answerInContext } from '../retrieval/metrics';

export interface CitationScore {
  /** Cited passages that are gold ÷ cited passages (undefined: nothing cited). */
  readonly precision?: number;
  /** Gold passages cited ÷ gold passages. */
  readonly recall: number;
}

/** Citations and gold are corpus document ids; a passage cited twice counts once. */
export function scoreGoldCitations(cited: readonly string[], gold: ReadonlySet<string>): CitationScore {
  const distinct = [...new Set(cited)];
  const hits = distinct.filter((id) => gold.has(id)).length;
  return { ...(distinct.length > 0 ? { precision: hits / distinct.length } : {}), recall: gold.size === 0 ? 0 : hits / gold.size };
}

export type PositionBucket = 'start' | 'middle' | 'end' | 'only item' | 'not in context';
export const POSITION_BUCKETS: readonly PositionBucket[] = ['only item', 'start', 'middle', 'end', 'not in context'];

/**
 * Where the answer's gold passage is among the context's items, in thirds of the context. The
 * answer's passage is the first gold item holding a gold answer alias; a multi-hop question's other
 * gold passages (its bridges) do not count. Without one, the question is "not in context".
 */
export function goldPosition(items: readonly { readonly documentId: string; readonly text: string }[], gold: ReadonlySet<string>, answers: readonly string[]): { readonly bucket: PositionBucket; readonly index?: number } {
  const index = items.findIndex((item) => gold.has(item.documentId) && answerInContext(answers, item.text));
  if (index < 0) return { bucket: 'not in context' };
  if (items.length === 1) return { bucket: 'only item', index };
  const relative = index / (items.length - 1);
  return { bucket: relative < 1 / 3 ? 'start' : relative <= 2 / 3 ? 'middle' : 'end', index };
}
