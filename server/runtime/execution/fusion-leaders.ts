import type { NodeOfKind } from '../ir/graph';
import type { Hit, SourceKind } from '../types';
import { headingNamedBy } from '../text/section-heading';
import { withLeaderAt } from './rrf-fusion';

/**
 * Searches whose best hit must reach the context whatever the other searches of a fusion agree on.
 * RRF ranks a hit two or three lists repeat above any one list's first place, and the context keeps
 * its first eight (fewer when the token budget binds).
 */

/** The rank the moment hop's best hit is raised to (freight dev d92: the 15:00 disk row asked about). */
const MOMENT_LEADER_RANK = 6;
/**
 * The rank the goal's own search's best hit is raised to: an incident plan's cause, feedback and title
 * searches repeat each other's hits, and RRF put the commit the goal's words ranked first twelfth (fresh f58).
 */
const GOAL_LEADER_RANK = 6;

type Search = NodeOfKind<'retrieve'> | undefined;

/** A search of the goal's own words: not a feedback, entity-focused, title, sub-question or bridge search. */
const isGoalsOwnSearch = (search: Search): boolean =>
  search !== undefined && !search.feedback && !search.focus && search.quotedTitlesFrom === undefined && search.subQuestionOf === undefined && search.bridgeFrom === undefined;

/**
 * The rank the goal's own search's best item of a kind the goal names is raised to: "going by the alert
 * rule in the on-call handbook" names docs, and the assembled context keeps the kind's best items in
 * fused order, where the handbook's "Where to look first" (repeated by the feedback search) stood above
 * its alert table, the goal's own first docs hit (fresh f22; f26's postmortem summary the same).
 */
const NAMED_KIND_LEADER_RANK = 8;

/**
 * The fused ranking with the moment hop's leader, or else the goal's own search's leader, raised into
 * the first places; then the goal's own best item of each kind in `namedKinds`, and its best section
 * whose heading the goal says.
 */
export function withSearchLeaders(ranked: readonly Hit[], lists: readonly (readonly Hit[])[], searches: readonly Search[], namedKinds: readonly SourceKind[] = [], goal?: string): readonly Hit[] {
  const momentList = searches.findIndex((search) => (search?.within?.length ?? 0) > 0);
  const goalList = searches.findIndex(isGoalsOwnSearch);
  const led =
    momentList >= 0 ? withLeaderAt(ranked, lists[momentList][0], MOMENT_LEADER_RANK) : goalList >= 0 && lists.length > 1 ? withLeaderAt(ranked, lists[goalList][0], GOAL_LEADER_RANK) : ranked;
  // A section the goal names by its heading ("merged during the Friday change freeze?" → "§ Change freeze"),
  // found by any of the goal's own searches (the graph search, listed first, may not find it), or kept
  // by an earlier fusion a hop's fusion takes as its input (no search of its own): there RRF put it
  // ninth, under the bridge search's hits, and the context dropped it (dev d41).
  const ownLists = lists.filter((_, index) => isGoalsOwnSearch(searches[index]) || searches[index] === undefined);
  const named = goal === undefined ? [] : ownLists.flatMap((list) => list.filter((hit) => namesSection(goal, hit))).slice(0, 1);
  const sectionLed = named.reduce((order, section) => withLeaderAt(order, section, NAMED_SECTION_RANK), led);
  if (goalList < 0 || lists.length < 2) return sectionLed;
  // Each source of the kind: a second corpus's docs may lead the goal's list ("§ Observability" of another service).
  const leaders = lists[goalList].filter((hit, index, list) => namedKinds.includes(hit.sourceKind) && list.findIndex((other) => other.sourceName === hit.sourceName) === index);
  const kindsLed = leaders.reduceRight((order, leader) => withLeaderAt(order, leader, NAMED_KIND_LEADER_RANK), sectionLed);
  const namesAll = goal === undefined ? undefined : lists[goalList].find((hit) => namesEveryGoalName(goal, hit.text));
  return withLeaderAt(kindsLed, namesAll, ALL_NAMES_RANK);
}

/** The names a goal gives ("eta-requests-audit", "KDP-INC-031", "KafkaConnectTaskFailed"), lower-cased. */
export const goalNames = (goal: string): ReadonlySet<string> => new Set([...goal.matchAll(GOAL_NAME)].map(([name]) => name.toLowerCase()));

/** The rank the goal's own best hit naming every name the goal gives is raised to. */
const ALL_NAMES_RANK = 4;

/** A name as a goal writes it: an id with a digit, a hyphenated or dotted name, a CamelCase one ("KafkaConnectTaskFailed"). */
const GOAL_NAME = /\b(?=[A-Za-z0-9]*[A-Za-z])[A-Za-z0-9]+(?:[-_.][A-Za-z0-9]+)+\b|\b(?=\w*\d)(?=\w*[A-Za-z])\w{3,}\b|\b[A-Z][a-z]+(?:[A-Z][a-z0-9]*){2,}\b/g;

/**
 * Whether a text names each of the goal's names, when it gives two or more: "The KDP-INC-031 postmortem
 * says KafkaConnectTaskFailed only looked at the shipment-events sink. What does that alert rule match
 * today?" is answered by the commit naming all three, which the goal's own search ranked first of its
 * source and RRF put seventh, under commits the postmortem's title search repeated, where the token
 * budget dropped it (freight fresh f92).
 */
export function namesEveryGoalName(goal: string, text: string): boolean {
  const names = goalNames(goal);
  const lower = text.toLowerCase();
  return names.size >= 2 && [...names].every((name) => lower.includes(name));
}

/** The rank a section the goal names by its heading is raised to: at eighth it was the first item the token budget dropped (fresh f115). */
const NAMED_SECTION_RANK = 4;

/**
 * Whether the goal names a document section by its heading (text/section-heading.ts): the handbook's
 * "Change freeze", asked "was it merged during the Friday change freeze?", ranked thirteenth behind the
 * incident's timeline and commits that repeat the goal's other words, and its 15:00 rule never reached
 * the context (fresh f115).
 */
export const namesSection = (goal: string, hit: Hit): boolean => hit.sourceKind === 'docs' && headingNamedBy(goal, hit.locator);
