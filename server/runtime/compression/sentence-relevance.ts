/**
 * How much a context sentence bears on the goal, scored the way the offline reader picks what it
 * quotes: goal terms the sentence shares, each weighted by its rarity across the context's
 * sentences (a term every passage repeats tells the sentences apart least), plus a share of the
 * goal terms its passage's title carries — a Wikipedia-style passage names its subject in the
 * title and then says "it" (HotpotQA / MuSiQue bridge sentences often share no word with the
 * question but sit under a title that does).
 */
import type { ContextItem } from '../types';
import { splitSentences } from '../text/sentence-splitter';
import { contentTerms } from '../text/text-terms';

/** Share of the title's goal-term weight each of its passage's sentences gets (the reader's TITLE_SHARE is 0.6). */
export const TITLE_SHARE = 0.5;
/** A passage's first sentence usually introduces its subject; a small bonus keeps it over an equally matching later one. */
export const LEAD_BONUS = 0.25;

export interface ScoredSentence {
  /** Index of the item in the compressor's input. */
  readonly item: number;
  /** Index of the sentence within its item (what lineage records as omitted). */
  readonly index: number;
  readonly text: string;
  readonly tokens: number;
  readonly score: number;
}

/** Every sentence of every item, scored against the goal. */
export function scoreSentences(goal: string, items: readonly ContextItem[], countTokens: (text: string) => number): ScoredSentence[][] {
  const goalTerms = new Set(contentTerms(goal));
  const split = items.map((item) => splitSentences(item.text).map((text) => ({ text, terms: new Set(contentTerms(text)) })));
  const total = split.reduce((sum, sentences) => sum + sentences.length, 0);
  const frequency = new Map<string, number>();
  for (const sentences of split) for (const sentence of sentences) for (const term of sentence.terms) if (goalTerms.has(term)) frequency.set(term, (frequency.get(term) ?? 0) + 1);
  const weight = (term: string): number => Math.log(1 + total / Math.max(1, frequency.get(term) ?? 1));
  const matched = (terms: ReadonlySet<string>): number => [...terms].reduce((sum, term) => sum + (goalTerms.has(term) ? weight(term) : 0), 0);
  return split.map((sentences, item) => {
    const title = TITLE_SHARE * matched(new Set(contentTerms(items[item].hit.title)));
    return sentences.map((sentence, index) => ({
      item,
      index,
      text: sentence.text,
      tokens: countTokens(sentence.text),
      score: matched(sentence.terms) + title + (index === 0 ? LEAD_BONUS : 0),
    }));
  });
}
