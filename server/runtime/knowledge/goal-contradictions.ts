/**
 * Which contradictions concern a goal. The Knowledge Layer knows every disagreement among the
 * sources; an answer should warn only about the ones it touches (issue 10: the demo's checkout-api
 * memory-limit contradiction was attached to answers about billing). A contradiction concerns the
 * goal when the goal names its subject, or when the answer itself states one of the disputed
 * values from a chunk it cites (and names the subject, or the goal names no entity at all).
 */
import type { Contradiction } from '../contracts/knowledge';
import type { Citation, Intent } from '../types';

export interface ScopedContradictions {
  /** About the goal: the answer carries these as caveats, EXPLAIN lists them as the goal's. */
  readonly concerning: readonly Contradiction[];
  /** Known in the same sources but about something the goal does not ask about. */
  readonly other: readonly Contradiction[];
}

export interface AnswerEvidence {
  readonly text: string;
  readonly citations: readonly Citation[];
}

const NAME_CHARACTER = /[\p{L}\p{N}_-]/u;

/** `phrase` occurs in `text` as whole words ("checkout-api" is not inside "checkout-api-v2" nor "my-checkout-api"). */
export function mentions(text: string, phrase: string): boolean {
  const haystack = text.toLowerCase();
  const needle = phrase.toLowerCase().trim();
  if (needle === '') return false;
  for (let at = haystack.indexOf(needle); at !== -1; at = haystack.indexOf(needle, at + 1)) {
    const before = haystack[at - 1];
    const after = haystack[at + needle.length];
    if ((before === undefined || !NAME_CHARACTER.test(before)) && (after === undefined || !NAME_CHARACTER.test(after))) return true;
  }
  return false;
}

/** The goal names the subject: as an extracted entity or identifier, or as whole words of the goal. */
export function goalNamesSubject(intent: Intent, subject: string): boolean {
  const wanted = subject.toLowerCase();
  if (intent.entities.some((entity) => entity.toLowerCase() === wanted)) return true;
  if (intent.identifiers.some((identifier) => identifier.value.toLowerCase() === wanted)) return true;
  return mentions(intent.goal, subject);
}

/** "256Mi" and "256 Mi" are one value; compared without spaces, case-insensitively. */
const folded = (value: string) => value.toLowerCase().replace(/\s+/g, '');

/** The answer states a disputed value taken from a chunk it cites, about this subject (or the goal names nothing). */
export function answerStatesFact(contradiction: Contradiction, intent: Intent, answer: AnswerEvidence): boolean {
  if (intent.entities.length > 0 && !mentions(answer.text, contradiction.subject)) return false;
  const stated = folded(answer.text);
  const cited = new Set(answer.citations.map((citation) => citation.chunkId));
  return contradiction.values.some((entry) => cited.has(entry.chunkId) && stated.includes(folded(entry.value)));
}

/** Splits known contradictions into those that concern the goal (and, after a run, its answer) and the rest. */
export function scopeContradictions(contradictions: readonly Contradiction[], intent: Intent, answer?: AnswerEvidence): ScopedContradictions {
  const concerning: Contradiction[] = [];
  const other: Contradiction[] = [];
  for (const contradiction of contradictions) {
    const about = goalNamesSubject(intent, contradiction.subject) || (answer !== undefined && answerStatesFact(contradiction, intent, answer));
    (about ? concerning : other).push(contradiction);
  }
  return { concerning, other };
}
