/**
 * A question asking for a whole list ("What fields are in the vehicle_eta_features view? I need the
 * full list") is answered by every entry of the list a quoted line belongs to: the sibling lines of
 * one block under one key path (`vehicle_eta_features › schema: Field(name=…)`). Quoted by score, four
 * sentences held the three best fields and the view's timestamp, and left out the rest (freight fresh f183).
 */
import type { ScoredUnit } from './extractive-quoted-subjects';
import type { Unit } from './extractive-units';

/** "the full list", "list all", "all the fields", "what fields are …", "which topics does …", "which subjects have …". */
const ASKS_LIST = /\b(?:full|complete|whole|entire)\s+list\b|\blist\s+(?:of|all|every)\b|\ball\s+(?:of\s+)?the\s+[a-z]+s\b|\b(?:which|what)\s+(?:[a-z][a-z0-9_-]*\s+)?([a-z]{3,}s)\s+(?:of\s+[^?]*?\s)?(?:are|were|does|do|have|had)\b/i;
export const asksForList = (question: string): boolean => ASKS_LIST.test(question);
/** The plural a which-question asks for ("subjects" of "which subjects have …"), lower case. */
const askedPlural = (question: string): string | undefined => ASKS_LIST.exec(question)?.[1]?.toLowerCase();

/**
 * A list entry's key path and the entry's form: "added: vehicle_eta_features › schema" and `Field(` of
 * "added: vehicle_eta_features › schema: Field(…)". An entry is a call, an item ("- name") or a
 * quoted string; `database="KDP_DW"` beside `table=…` are two keys of one block, not a list.
 */
const LIST_ENTRY = /^(.*›[^:]*):\s+([\w.]+\(|[-*]\s|["'{])/;
/**
 * Keys of a map are entries too when the map is named by the plural asked for: "which subjects have their
 * compatibility pinned?" is answered by every key under `subjects:` (freight fresh f332).
 */
const MAP_ENTRY = /^(.*›\s*([\w-]+)):\s+[\w.-]+:\s/;
const listOf = (unit: Unit, plural: string | undefined): string | undefined => {
  if (unit.role !== 'setting' && unit.role !== 'change') return undefined;
  const entry = LIST_ENTRY.exec(unit.text);
  if (entry) return `${unit.ref}\u0000${entry[1]}\u0000${entry[2]}`;
  const keyed = plural === undefined ? null : MAP_ENTRY.exec(unit.text);
  return keyed && keyed[2].toLowerCase() === plural ? `${unit.ref}\u0000${keyed[1]}\u0000:` : undefined;
};

/** Entries of one list quoted at most: a longer list is a file, not an answer. */
const MAX_LIST_ENTRIES = 12;

/** The picked units, each quoted list entry followed by its siblings in the block's order (none twice). */
export function withListSiblings(question: string, picked: readonly ScoredUnit[], scored: readonly ScoredUnit[], queryTerms: ReadonlySet<string>): readonly ScoredUnit[] {
  const plural = askedPlural(question);
  const listOfUnit = (unit: Unit) => listOf(unit, plural);
  const result = [...picked];
  const listed = new Set<string>();
  for (const entry of picked) {
    const list = listOfUnit(entry.unit);
    if (list === undefined || listed.has(list)) continue;
    listed.add(list);
    // "Which fields … are nullable with a default of null?": the entries meeting the question's words every quoted one meets, not the
    // whole list. Every one: "the fields for the median and the 90th-percentile time" quoted `traversals_90d` beside the median's
    // field, and the p90 field met neither's own words (freight fresh f391).
    const quoted = picked.filter((other) => listOfUnit(other.unit) === list);
    const met = [...queryTerms].filter((term) => quoted.every((other) => other.unit.termSet.has(term)));
    const siblings = scored.filter((other) => listOfUnit(other.unit) === list && met.every((term) => other.unit.termSet.has(term))).sort((left, right) => left.unit.order - right.unit.order);
    if (siblings.length > MAX_LIST_ENTRIES) continue;
    for (const sibling of siblings) if (!result.some((kept) => kept.unit === sibling.unit)) result.push(sibling);
  }
  return result;
}
