/**
 * Two kinds of question the extractive reader answers from a particular kind of sentence, whatever
 * its overlap with the question's words.
 */

/**
 * "What happens now if it fills up again?", "what would happen when …" ask for a consequence that
 * holds in general: a log record says what happened once, so it weighs as in a how-to question
 * (freight dev d103: three health lines of the incident outranked the commit saying a full Redis now
 * fails the materialization).
 */
const HYPOTHETICAL_QUESTION = /\bwhat (?:happens|would happen|will happen|is going to happen)\b[^?.]*\b(?:if|when|once|should)\b/i;
export const asksHypothetical = (question: string): boolean => HYPOTHETICAL_QUESTION.test(question);

/**
 * "Why was that judged better than evicting?" asks why one option won over another: the reason is the
 * sentence weighing them ("… makes a full Redis fail the materialization (which pages) instead of
 * silently dropping features"), however few of the question's words it repeats (freight dev d103).
 */
const PREFERENCE_QUESTION = /\b(?:better|worse|safer|preferred|preferable)\b[^?]*\bthan\b|\brather than\b|\binstead of\b/i;
export const asksWhyPreferred = (question: string): boolean => PREFERENCE_QUESTION.test(question);

const WEIGHS_OPTIONS = /\b(?:instead of|rather than|(?:better|worse|safer|cheaper) than)\b/i;
/** Whether a sentence sets one option against another. */
export const weighsOptions = (text: string): boolean => WEIGHS_OPTIONS.test(text);
