/**
 * The "named change" hop of an incident: documents name the commit behind an incident by its quoted
 * subject line (a postmortem's timeline: kdp-infra change "Move Connect S3 sinks to the lake-writer
 * IAM role" merged), not by its SHA, and the commit itself shares few words with the question
 * ("Which commit broke the vehicle-positions S3 sink?"), so neither the goal's search nor its
 * feedback expansion reaches it (issue 10, freight tune q15). Each quoted title of the first hop's
 * evidence is searched on its own, and a change record holding that exact title is the evidence.
 */
import { quotedSpans } from '../planner/goal-tokens';
import type { Hit } from '../types';

/** A title has at least this many words: a quoted word or two ("NONE", "Fleet utilisation") names a value, not a change. */
const MIN_TITLE_WORDS = 3;
/** At most this many titles are followed, taken from the best-ranked evidence first: one search each. */
export const MAX_FOLLOWED_TITLES = 4;
/** Hits of each title search to look through for the record holding the title. */
export const TITLE_SEARCH_K = 5;

/** Quoted multi-word titles in the hits' text, best hit first, each once. */
export function quotedTitles(hits: readonly Hit[], limit = MAX_FOLLOWED_TITLES): string[] {
  const titles: string[] = [];
  for (const hit of hits) {
    for (const span of quotedSpans(hit.text)) {
      const title = span.replace(/\s+/g, ' ').trim();
      if (title.split(' ').length < MIN_TITLE_WORDS || !/[a-z]/i.test(title)) continue;
      if (!titles.some((known) => known.toLowerCase() === title.toLowerCase())) titles.push(title);
      if (titles.length >= limit) return titles;
    }
  }
  return titles;
}

/**
 * For each title, the first change record (a git hit) whose text holds it verbatim, in title order.
 * `searchTitles` runs one retrieval per title (together, where the retriever can); a title no
 * change record holds adds nothing.
 */
export async function followQuotedTitles(seed: readonly Hit[], searchTitles: (titles: readonly string[]) => Promise<readonly (readonly Hit[])[]>): Promise<Hit[]> {
  const titles = quotedTitles(seed);
  if (titles.length === 0) return [];
  const lists = await searchTitles(titles);
  const found: Hit[] = [];
  titles.forEach((title, index) => {
    const lower = title.toLowerCase();
    const holder = (lists[index] ?? []).find((hit) => hit.sourceKind === 'git' && `${hit.title}\n${hit.text}`.toLowerCase().includes(lower));
    if (holder && !found.some((hit) => hit.chunkId === holder.chunkId)) found.push(holder);
  });
  return found.map((hit, index) => ({ ...hit, rank: index + 1 }));
}
