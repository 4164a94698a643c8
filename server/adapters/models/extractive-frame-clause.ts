/**
 * Terms a question uses only to set the scene of what it asks. "How full was kafka-2's data disk at
 * noon UTC on Saturday 7 March, while the vehicle-positions sink was down?" asks for a disk figure;
 * the while-clause dates it by another event. Counted like the asked words, that clause's words made
 * a timeline line about the sink outrank the metric row holding the answer (freight dev d48). A
 * temporal or circumstantial adverbial clause is background to the question's focus (Lambrecht 1994,
 * information structure; the "topic" vs "focus" of question answering, e.g. Burger et al. 2001), so
 * a term found only there weighs FRAME_WEIGHT.
 */
import { idiomTerms } from '../../runtime/text/operator-idioms';
import { contentTerms } from '../../runtime/text/text-terms';
import { excludedTerms } from '../../runtime/text/set-aside-phrases';

/**
 * Subordinators that place what is asked against another event: "while the sink was down", "after
 * the fix was merged". "During the patching, which broker was taken down?" and "when kafka-3 was shut
 * down, how many partitions moved?" ask about the very event their clause names (freight dev d24),
 * so "during", "when" and "once" open no frame.
 */
const FRAME_OPENERS = new Set(['after', 'before', 'while', 'whilst', 'since', 'until']);
/** "Before I restart it, how do I check …": the asker's own next step is what the question is for, not a frame. */
const SPEAKERS = new Set(['i', 'we', 'you']);
/** How much of its weight a frame-only term keeps in the reader's score. */
export const FRAME_WEIGHT = 0.5;

/** Clauses of one sentence: split at commas, semicolons, colons and dashes set off by spaces. */
const CLAUSE_BREAK = /\s*[,;:]\s+|\s+[—–-]\s+/;

/**
 * Content terms of the question's frame clauses that its asking clauses do not use. A clause is a
 * frame when it opens with a subordinator and its sentence has another clause that is not one:
 * "When did the sink fail?" is the question itself, not a frame of it.
 */
export function frameOnlyTerms(question: string): ReadonlySet<string> {
  const frame = new Set<string>();
  const asked = new Set<string>();
  for (const sentence of question.split(/[.?!]+(?:\s+|$)/)) {
    const clauses = sentence.split(CLAUSE_BREAK).map((clause) => clause.trim()).filter((clause) => clause.length > 0);
    const isFrame = clauses.map((clause) => {
      const [opener, subject] = clause.toLowerCase().split(/\s+/);
      return FRAME_OPENERS.has(opener) && !SPEAKERS.has(subject ?? '');
    });
    const framed = isFrame.some(Boolean) && isFrame.some((value) => !value);
    clauses.forEach((clause, index) => {
      for (const term of contentTerms(clause)) (framed && isFrame[index] ? frame : asked).add(term);
    });
  }
  for (const term of asked) frame.delete(term);
  return frame;
}

/**
 * Adverbs of aspect say whether a state goes on, not what it is about: "Is that still how many it runs
 * in production?" made "eta-api answers with static ETAs (worse, still an answer)" the best sentence
 * (a fresh freight question, f51). PostgreSQL's stopword list keeps them, so only the reader drops them.
 */
const ASPECT_ADVERBS: ReadonlySet<string> = new Set(contentTerms('still yet already anymore currently nowadays'));

/** The question's content terms without those it sets aside or that only mark aspect. */
export function askedTerms(question: string): string[] {
  const excluded = excludedTerms(question);
  // "append-only" is the key `appendonly`, "auto-scale" `autoscale`: a hyphenated pair of words also asks for them joined (fresh f97).
  const joined = [...question.toLowerCase().matchAll(/\b([a-z]{3,})-([a-z]{3,})\b/g)].flatMap(([, first, second]) => contentTerms(first + second));
  return [...contentTerms(question), ...joined, ...idiomTerms(question)].filter((term) => !excluded.has(term) && !ASPECT_ADVERBS.has(term));
}
