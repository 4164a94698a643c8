/**
 * "When did the 5-minute static_eta share of eta-api first rise above 1 % on 14 April 2026?", "at what
 * time did the p99 latency first exceed 100 ms?": the first record of a day whose field, named in the
 * question, passed a value the question gives. The day's first record (event-anchor.ts askedDayBound)
 * is the wrong one unless it passed; a record passes when it sets that field (`static_eta=1.5%`,
 * `p99=105ms`) above the value. Only fields the question names by their key: "p99 latency" is `p99`,
 * not `feature_fetch_p99`.
 */
import { tokenize } from './text-terms';

export interface AskedCrossing {
  /** The value the field must pass, in the question's unit. */
  readonly threshold: number;
  /** The keys the question names ("static_eta", "p99"), lower-cased. */
  readonly keys: ReadonlySet<string>;
}

const CROSSED = /\bfirst\s+(?:(?:rise|rose|risen|go|went|gone|get|got|climb(?:ed)?|jump(?:ed)?|move(?:d)?)\s+)?(?:above|over|past|beyond|exceed(?:ed|s)?|pass(?:ed)?|cross(?:ed)?)\s+(?:the\s+)?(\d+(?:\.\d+)?)\s*(?:%|percent\b|ms\b|milliseconds?\b|s\b|seconds?\b|[kmg]i?b\b|records?\b)?/i;

/** A field set to a number in a record: "static_eta=1.5%", "p99=105ms", "used_memory: 8.0". */
const FIELD_VALUE = /([a-z][\w.-]*)\s*[=:]\s*(-?\d+(?:\.\d+)?)/gi;

/** The crossing a question asks for; undefined when it asks none or names no key a record could set. */
export function askedCrossing(question: string): AskedCrossing | undefined {
  const crossed = CROSSED.exec(question);
  if (!crossed) return undefined;
  const keys = new Set(tokenize(question).filter((token) => /^[a-z]/.test(token) && /[\d_]/.test(token)));
  return keys.size === 0 ? undefined : { threshold: Number(crossed[1]), keys };
}

/** Whether a record sets a field the question names above its value. */
export function passesCrossing(text: string, crossing: AskedCrossing): boolean {
  return [...text.matchAll(FIELD_VALUE)].some(([, key, value]) => crossing.keys.has(key.toLowerCase()) && Number(value) > crossing.threshold);
}
