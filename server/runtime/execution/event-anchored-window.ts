/**
 * The stamped search of a goal whose record is anchored to an event ("right before the sink was
 * restarted on 9 March, how many records behind was it?"), narrowed once the first retrieval has run:
 * its hits say when the event happened ("Mar 9 08:14 — tasks restarted"), and the search keeps to the
 * hours on the asked side of that moment. Over the event's whole day the bm25 ranking of the day's
 * lines put the file commits of the afternoon above the one a minute before the uploads were denied
 * (freight dev d96). This is the bridge of a two-hop question, found in retrieved text instead of a
 * model's intermediate answer.
 */
import type { TimeWindow } from '../contracts/retriever';
import type { RetrieveNode } from '../ir/graph';
import type { Hit } from '../types';
import { type AnchorSide, askedDayBound, askedEventAnchor, dayBoundWindow, eventMomentIn, minutesOfInstant, windowNear } from '../text/event-anchor';
import { type AskedCrossing, askedCrossing, passesCrossing } from '../text/crossing-question';
import { statedMoments } from '../text/moment-terms';
import { splitSentences } from '../text/sentence-splitter';
import { contentTerms } from '../text/text-terms';

/** The event the first retrieval dates: when it happened (minutes into any year), the side asked, and the window to search there. */
export interface DatedEvent {
  readonly at: number;
  readonly side: AnchorSide;
  readonly window: TimeWindow;
  /** Hits scoring within this share of the best are near-ties, ordered by nearness to the event. */
  readonly nearTieShare: number;
  /** A field's first passing of a value ("static_eta first rose above 1 %"): near-ties with a line passing it come first. */
  readonly crossing?: AskedCrossing;
}

/** The event the goal's record is anchored to, dated by the hits; undefined when they date none (the planned window stands). */
function eventDatedBy(goal: string, hits: readonly Hit[]): DatedEvent | undefined {
  const anchor = askedEventAnchor(goal);
  if (!anchor) return undefined;
  const sentences = hits.flatMap((hit) => splitSentences(hit.text)).map((text) => ({ text, termSet: new Set(contentTerms(text)), moments: statedMoments(text) }));
  const frequency = new Map<string, number>();
  for (const sentence of sentences) for (const term of sentence.termSet) frequency.set(term, (frequency.get(term) ?? 0) + 1);
  // Smoothed IDF over the retrieved sentences: the event's rare name outweighs a verb every line repeats.
  const idf = (term: string) => Math.log(1 + sentences.length / (1 + (frequency.get(term) ?? 0)));
  const event = eventMomentIn(anchor, sentences, idf);
  return event ? { at: event.at, side: anchor.side, window: windowNear(event.at, anchor.side), nearTieShare: NEAR_TIE_SHARE } : undefined;
}

/** "The first warning on 14 April": the day's start as the event, the day as the window. */
function dayBoundEvent(goal: string): DatedEvent | undefined {
  const bound = askedEventAnchor(goal) ? undefined : askedDayBound(goal);
  if (!bound) return undefined;
  const { at, window } = dayBoundWindow(bound);
  const crossing = askedCrossing(goal);
  return { at, side: bound.side, window, nearTieShare: DAY_NEAR_TIE_SHARE, ...(crossing ? { crossing } : {}) };
}

/**
 * Hits scoring within this share of the best: near-ties on the goal's words, where nearness to the event
 * decides. Ranked by words alone, the afternoon's file commits sharing every word outranked the last one
 * before the uploads were denied, a shorter chunk (freight dev d96).
 */
const NEAR_TIE_SHARE = 0.5;
/**
 * Over a whole day more lines tie loosely (every five-minute stats line of eta-api shares its name and
 * "features"): the first warning of the day must match as the warnings do (freight fresh f168).
 */
const DAY_NEAR_TIE_SHARE = 0.75;

/** Minutes added to the gap of a hit with no line passing an asked crossing: more than a year, so it comes after every one that has one. */
const CROSSING_LAST = 366 * 24 * 60;

/** How many times k a search ordered by nearness to an event fetches before it orders and cuts. */
export const EVENT_OVERFETCH = 4;
/**
 * A field's first passing of a value may be any record of the day, whatever it shares with the goal's
 * words: the 07:20 stats line of eta-api with `p99=105ms` was not among the day's first 80 by bm25 (fresh f228).
 */
export const CROSSING_OVERFETCH = 12;

/** The search's near-ties on the goal's words, the one stamped nearest the event first; the rest after, in their order. */
export function nearestEventFirst(hits: readonly Hit[], event: DatedEvent): readonly Hit[] {
  const top = Math.max(0, ...hits.map((hit) => hit.score));
  const gapOf = (text: string) => Math.min(Infinity, ...[...statedMoments(text)].map(minutesOfInstant).filter((at): at is number => at !== undefined).map((at) => Math.abs(at - event.at)));
  // Asked when a field first passed a value, a hit is as near as its first line passing it; one with none comes after all that have one.
  const { crossing } = event;
  const crossingGaps = new Map(crossing ? hits.map((hit) => [hit, Math.min(Infinity, ...hit.text.split('\n').filter((line) => passesCrossing(line, crossing)).map(gapOf))] as const) : []);
  const crossingGap = (hit: Hit) => crossingGaps.get(hit) ?? Infinity;
  const gap = (hit: Hit) => (crossing ? Math.min(crossingGap(hit), gapOf(hit.text) + CROSSING_LAST) : gapOf(hit.text));
  // Any record passing an asked crossing is a candidate, whatever its words scored.
  const tied = hits.filter((hit) => hit.score >= top * event.nearTieShare || crossingGap(hit) < Infinity);
  const ordered = tied.map((hit, index) => ({ hit, index, gap: gap(hit) })).sort((left, right) => left.gap - right.gap || left.index - right.index).map(({ hit }) => hit);
  return [...ordered, ...hits.filter((hit) => !tied.includes(hit))];
}

/**
 * How a stamped search runs: anchored to an event, the hours on the asked side of the moment the first
 * retrieval's hits give it (`narrowed`); asked for a day's first or last record, that day; either way its
 * hits are ordered by nearness to the event (`ordering`). A plain search keeps its windows and order.
 */
export function stampedSearchOf(goal: string, node: RetrieveNode, hitsOf: (nodeId: string) => readonly Hit[]): { readonly within?: readonly TimeWindow[]; readonly ordering?: DatedEvent; readonly narrowed: boolean } {
  if (!node.within) return { narrowed: false };
  const event = node.anchoredOn !== undefined ? eventDatedBy(goal, hitsOf(node.anchoredOn)) : undefined;
  if (event) return { within: [event.window], ordering: event, narrowed: true };
  const bound = dayBoundEvent(goal);
  return { within: node.within, ...(bound ? { ordering: bound } : {}), narrowed: false };
}
