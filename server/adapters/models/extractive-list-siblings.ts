/**
 * A question asking for a whole list ("What fields are in the vehicle_eta_features view? I need the
 * full list") is answered by every entry of the list a quoted line belongs to: the sibling lines of
 * one block under one key path (`vehicle_eta_features › schema: Field(name=…)`). Quoted by score, four
 * sentences held the three best fields and the view's timestamp, and left out the rest (freight fresh f183).
 */
import type { ScoredUnit } from './extractive-quoted-subjects';
import type { Unit } from './extractive-units';

/** "the full list", "list all", "all the fields", "what fields are …", "which topics does …". */
const ASKS_LIST = /\b(?:full|complete|whole|entire)\s+list\b|\blist\s+(?:of|all|every)\b|\ball\s+(?:of\s+)?the\s+[a-z]+s\b|\b(?:which|what)\s+(?:[a-z][a-z0-9_-]*\s+)?[a-z]{3,}s\s+(?:of\s+[^?]*?\s)?(?:are|were|does|do)\b/i;
export const asksForList = (question: string): boolean => ASKS_LIST.test(question);

/**
 * A list entry's key path and the entry's form: "added: vehicle_eta_features › schema" and `Field(` of
 * "added: vehicle_eta_features › schema: Field(…)". An entry is a call, an item ("- name") or a
 * quoted string; `database="KDP_DW"` beside `table=…` are two keys of one block, not a list.
 */
const LIST_ENTRY = /^(.*›[^:]*):\s+([\w.]+\(|[-*]\s|["'{])/;
const listOf = (unit: Unit): string | undefined => {
  const entry = unit.role === 'setting' || unit.role === 'change' ? LIST_ENTRY.exec(unit.text) : null;
  return entry ? `${unit.ref}\u0000${entry[1]}\u0000${entry[2]}` : undefined;
};

/** Entries of one list quoted at most: a longer list is a file, not an answer. */
const MAX_LIST_ENTRIES = 12;

/** The picked units, each quoted list entry followed by its siblings in the block's order (none twice). */
export function withListSiblings(picked: readonly ScoredUnit[], scored: readonly ScoredUnit[], queryTerms: ReadonlySet<string>): readonly ScoredUnit[] {
  const result = [...picked];
  const listed = new Set<string>();
  for (const entry of picked) {
    const list = listOf(entry.unit);
    if (list === undefined || listed.has(list)) continue;
    listed.add(list);
    // "Which fields … are nullable with a default of null?": the entries meeting the question's words the quoted one meets, not the whole list.
    const met = [...queryTerms].filter((term) => entry.unit.termSet.has(term));
    const siblings = scored.filter((other) => listOf(other.unit) === list && met.every((term) => other.unit.termSet.has(term))).sort((left, right) => left.unit.order - right.unit.order);
    if (siblings.length > MAX_LIST_ENTRIES) continue;
    for (const sibling of siblings) if (!result.some((kept) => kept.unit === sibling.unit)) result.push(sibling);
  }
  return result;
}
