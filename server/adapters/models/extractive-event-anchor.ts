/**
 * A reading asked at the moment of another event: "How big was the sink lag around the time
 * ConnectSinkLagHigh fired on 6 March?", "Right before the sink was restarted on 9 March, how many
 * records behind was it?". The question names no clock time; the context does, in the sentence
 * stating the event ("`ConnectSinkLagHigh` fired at 18:21"). That sentence fixes the moment, and the
 * reading is the record of the question's subject stamped nearest to it, on the side asked (before,
 * around, after). This is the bridge step of a two-hop question resolved inside one context, as
 * temporal relation extraction anchors an event to a time expression (TimeML TLINKs; UzZaman et al.,
 * TempEval-3, 2013). Without it the timeline's lines about the days around the event, sharing more
 * of the question's words, outscored both the moment and the 18:00 reading (freight fresh f84). "When
 * did the sink last commit a file before the uploads were denied?" asks for such a record too (dev d96).
 */
import { type AnchorSide, MAX_GAP_MINUTES, askedDayBound, askedEventAnchor, dayBoundWindow, eventMomentIn, minutesOfInstant } from '../../runtime/text/event-anchor';
import { askedCrossing, passesCrossing } from '../../runtime/text/crossing-question';
import { asksReading } from '../../runtime/text/reading-question';
import { LEADING_TIMESTAMP, type Unit } from './extractive-units';

/** A stamp written out in full, so the number a record states is not read off its own time. */
const FULL_STAMP = /\d{4}-\d{2}-\d{2}[tT ]\d{2}:\d{2}(?::\d{2})?(?:[.,]\d+)?Z?/g;
/** A day and the minute either side of it: the bound of a day's first or last record lies just outside the day. */
const DAY_MINUTES = 24 * 60 + 2;
const STATED_NUMBER = /(?<![\w.-])\d+(?:\.\d+)?(?![\w-])/;

/** How far a unit's stamp lies from the event on the side asked, in minutes; undefined when it lies elsewhere. */
function gapTo(unit: Unit, at: number, side: AnchorSide, maxGap: number): number | undefined {
  let nearest: number | undefined;
  for (const moment of unit.moments) {
    const stamped = minutesOfInstant(moment);
    if (stamped === undefined) continue;
    const offset = stamped - at;
    if ((side === 'before' && offset >= 0) || (side === 'after' && offset <= 0) || Math.abs(offset) >= maxGap) continue;
    if (nearest === undefined || Math.abs(offset) < nearest) nearest = Math.abs(offset);
  }
  return nearest;
}

/** A table row or a line opening with its timestamp: what a system recorded, not what someone wrote about it. */
export const isRecord = (unit: Unit): boolean => unit.role === 'row' || LEADING_TIMESTAMP.test(unit.text);

export interface AnchoredReading {
  /** The sentence stating when the event happened: it answers "and at what time did it fire?" (none for a day's first or last record). */
  readonly event?: Unit;
  /** The records of the question's subject stamped nearest the event: one of them is the reading. */
  readonly readings: ReadonlySet<Unit>;
}

/**
 * Of the records of the question's subject, a question word in any is not enough: the 16:52 "assumed
 * role" line of the sink's log holds "s3" and the sink's name, yet the record asked for is the file
 * commit a minute earlier (freight dev d96). A record must hold this share of the subject's weight the
 * best record on the asked side holds.
 */
const SUBJECT_SHARE = 0.75;

/**
 * The event's sentence and the records nearest it. Such a record is a table row or a line opening with
 * its timestamp, holding the question's words the event clause lacks (the subject read, "lag"), and
 * for a reading a number besides its stamp; a timeline's "May 2 16:10 — the sink stops" dates an
 * event, it reads nothing. "The first warning on 14 April" has the day's start as its event, and no
 * sentence stating it (freight fresh f168).
 */
export function anchoredReading(question: string, units: readonly Unit[], idf: (term: string) => number, queryTerms: ReadonlySet<string>): AnchoredReading | undefined {
  const anchor = askedEventAnchor(question);
  const bound = anchor ? undefined : askedDayBound(question);
  const event = anchor ? eventMomentIn(anchor, units, idf) : bound ? { candidate: undefined, at: dayBoundWindow(bound).at } : undefined;
  const side = anchor?.side ?? bound?.side;
  if (!event || !side) return undefined;
  const eventTerms = anchor?.eventTerms ?? new Set<string>();
  const maxGap = anchor ? MAX_GAP_MINUTES : DAY_MINUTES;
  const reading = asksReading(question);
  const namingTerms = [...queryTerms].filter((term) => !/^\d+$/.test(term));
  const subjectTerms = namingTerms.filter((term) => !eventTerms.has(term));
  const onSide = new Map<Unit, { gap: number; weight: number }>();
  // "When did static_eta first rise above 1 %?": only a record passing it is the one asked for (runtime/text/crossing-question.ts).
  const crossing = bound ? askedCrossing(question) : undefined;
  for (const unit of units) {
    if (unit === event.candidate || !isRecord(unit) || (reading && !STATED_NUMBER.test(unit.text.replace(FULL_STAMP, ' ')))) continue;
    if (crossing && !passesCrossing(unit.text, crossing)) continue;
    // The subject is often named in the event clause too ("the positions sink was restarted"): all the question's words weigh.
    // Not the day's numbers: "6 March" met the "6" of `vehicle-positions-6` and outweighed the later commit of partition 5 (dev d96).
    const weight = namingTerms.filter((term) => unit.termSet.has(term)).reduce((sum, term) => sum + idf(term), 0);
    const gap = gapTo(unit, event.at, side, maxGap);
    if (subjectTerms.some((term) => unit.termSet.has(term)) && gap !== undefined) onSide.set(unit, { gap, weight });
  }
  const bar = SUBJECT_SHARE * Math.max(0, ...[...onSide.values()].map(({ weight }) => weight));
  const subject = [...onSide].filter(([, { weight }]) => weight >= bar);
  if (subject.length === 0) return undefined;
  const nearest = Math.min(...subject.map(([, { gap }]) => gap));
  return { ...(event.candidate ? { event: event.candidate } : {}), readings: new Set(subject.filter(([, { gap }]) => gap === nearest).map(([unit]) => unit)) };
}
