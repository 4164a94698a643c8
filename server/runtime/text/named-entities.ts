/**
 * The named things of a goal that its evidence must be about: identifier-shaped tokens
 * ("billing-worker", "invoice.generate", "inv-20251130-018842", "744c0b5", "PS-4291"). Dates,
 * clock times and bare numbers are left out — they place an event in time but every source has
 * them — and so are short hyphenated English compounds ("on-call", "start-up", "month-end"),
 * which name no system. The goal's words are matched against evidence as written, case-folded,
 * so "checkout-api-7d9f8b6c5-x2k4p" mentions "checkout-api" but "checkout-apis" does not.
 */
import { tokenize } from './text-terms';

const DATE_OR_TIME = /^\d{4}-\d{2}(-\d{2})?([t ].*)?$|^\d{1,2}:\d{2}(:\d{2})?$|^[\d.:,/-]+$/;
/** Hyphenated compounds of two short words ("on-call", "start-up", "roll-out") are vocabulary, not names. */
const COMMON_COMPOUND = /^[a-z]{2,5}-[a-z]{2,4}$/;
const IDENTIFIER_SHAPED = /[a-z][_.:/-][a-z0-9]|[0-9][_.:/-]?[a-z]|[a-z][_.:/-]?[0-9]/;

export function namedEntities(goal: string): string[] {
  const found: string[] = [];
  for (const token of tokenize(goal)) {
    if (token.length < 4 || DATE_OR_TIME.test(token) || COMMON_COMPOUND.test(token)) continue;
    if (!IDENTIFIER_SHAPED.test(token)) continue;
    if (!found.includes(token)) found.push(token);
  }
  return found;
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Whether `text` names `entity` as a whole token (a longer identifier that extends it with "-…" still counts). */
export function mentions(text: string, entity: string): boolean {
  const lower = entity.toLowerCase();
  // An abbreviated commit SHA names the commit whose full SHA it starts.
  const tail = /^[0-9a-f]{7,40}$/.test(lower) ? '[0-9a-f]*' : '';
  return new RegExp(`(^|[^a-z0-9_])${escapeRegExp(lower)}${tail}($|[^a-z0-9_]|-)`).test(text.toLowerCase());
}
