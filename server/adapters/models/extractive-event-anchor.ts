/**
 * A reading asked at the moment of another event: "How big was the sink lag around the time
 * ConnectSinkLagHigh fired on 6 March?", "Right before the sink was restarted on 9 March, how many
 * records behind was it?". The question names no clock time; the context does, in the sentence
 * stating the event ("`ConnectSinkLagHigh` fired at 18:21"). That sentence fixes the moment, and the
 * reading is the record of the question's subject stamped nearest to it, on the side asked (before,
 * around, after). This is the bridge step of a two-hop question resolved inside one context, as
 * temporal relation extraction anchors an event to a time expression (TimeML TLINKs; UzZaman et al.,
 * TempEval-3, 2013). Without it the timeline's lines about the days around the event, sharing more
 * of the question's words, outscored both the moment and the 18:00 reading (freight fresh f84).
 */
import { clockTimesIn } from '../../runtime/text/moment-terms';
import { type AnchorSide, type EventAnchor, askedEventAnchor } from '../../runtime/text/event-anchor';
import { LEADING_TIMESTAMP, type Unit } from './extractive-units';

/** A reading this many minutes or more away from the event was not taken around it. */
const MAX_GAP_MINUTES = 6 * 60;
const INSTANT = /^(?:\d{4}-)?(\d{2}-\d{2})t(\d{2}:\d{2})$/;
/** A stamp written out in full, so the number a record states is not read off its own time. */
const FULL_STAMP = /\d{4}-\d{2}-\d{2}[tT ]\d{2}:\d{2}(?::\d{2})?(?:[.,]\d+)?Z?/g;
const STATED_NUMBER = /(?<![\w.-])\d+(?:\.\d+)?(?![\w-])/;

/** Minutes since the start of the year (any year: the day and time as a line states them). */
function minutesOf(day: string, time: string): number {
  return Date.parse(`2000-${day}T${time}:00Z`) / 60_000;
}

/** The unit stating the event with a clock time, and that moment in minutes. */
function eventMoment(anchor: EventAnchor, units: readonly Unit[], idf: (term: string) => number): { unit: Unit; at: number } | undefined {
  const total = [...anchor.eventTerms].reduce((sum, term) => sum + idf(term), 0);
  const singleDay = [...anchor.days].find((day) => day.length === 5 && anchor.days.size <= 2);
  let best: { unit: Unit; at: number; weight: number } | undefined;
  for (const unit of units) {
    const weight = [...anchor.eventTerms].filter((term) => unit.termSet.has(term)).reduce((sum, term) => sum + idf(term), 0);
    // Most of the event's words: "restarted" alone is any restart.
    if (weight * 2 < total || (best && weight <= best.weight)) continue;
    const at = unitMoment(unit, anchor, singleDay);
    if (at !== undefined) best = { unit, at, weight };
  }
  return best;
}

/** When a unit says its event happened: its own stamp on the asked day, or a bare clock time in a sentence of no other day. */
function unitMoment(unit: Unit, anchor: EventAnchor, singleDay: string | undefined): number | undefined {
  const days = [...unit.moments].filter((moment) => !moment.includes('t'));
  for (const moment of unit.moments) {
    const instant = INSTANT.exec(moment);
    if (instant && (anchor.days.size === 0 || anchor.days.has(instant[1]))) return minutesOf(instant[1], instant[2]);
  }
  if (days.length > 0 || !singleDay) return undefined;
  const [time] = clockTimesIn(unit.text);
  return time === undefined ? undefined : minutesOf(singleDay, time);
}

/** How far a unit's stamp lies from the event on the side asked, in minutes; undefined when it lies elsewhere. */
function gapTo(unit: Unit, at: number, side: AnchorSide): number | undefined {
  let nearest: number | undefined;
  for (const moment of unit.moments) {
    const instant = INSTANT.exec(moment);
    if (!instant) continue;
    const offset = minutesOf(instant[1], instant[2]) - at;
    if ((side === 'before' && offset >= 0) || (side === 'after' && offset <= 0) || Math.abs(offset) >= MAX_GAP_MINUTES) continue;
    if (nearest === undefined || Math.abs(offset) < nearest) nearest = Math.abs(offset);
  }
  return nearest;
}

/** A table row or a line opening with its timestamp: what a system recorded, not what someone wrote about it. */
export const isRecord = (unit: Unit): boolean => unit.role === 'row' || LEADING_TIMESTAMP.test(unit.text);

export interface AnchoredReading {
  /** The sentence stating when the event happened: it answers "and at what time did it fire?". */
  readonly event: Unit;
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
 * its timestamp, stating a number besides its stamp and holding the question's words the event clause
 * lacks (the subject read, "lag"); a timeline's "May 2 16:10 — the sink stops" dates an event, it reads nothing.
 */
export function anchoredReading(question: string, units: readonly Unit[], idf: (term: string) => number, queryTerms: ReadonlySet<string>): AnchoredReading | undefined {
  const anchor = askedEventAnchor(question);
  if (!anchor) return undefined;
  const event = eventMoment(anchor, units, idf);
  if (!event) return undefined;
  const subjectTerms = [...queryTerms].filter((term) => !anchor.eventTerms.has(term));
  const onSide = new Map<Unit, { gap: number; weight: number }>();
  for (const unit of units) {
    if (unit === event.unit || !isRecord(unit) || !STATED_NUMBER.test(unit.text.replace(FULL_STAMP, ' '))) continue;
    const weight = subjectTerms.filter((term) => unit.termSet.has(term)).reduce((sum, term) => sum + idf(term), 0);
    const gap = gapTo(unit, event.at, anchor.side);
    if (weight > 0 && gap !== undefined) onSide.set(unit, { gap, weight });
  }
  const bar = SUBJECT_SHARE * Math.max(0, ...[...onSide.values()].map(({ weight }) => weight));
  const subject = [...onSide].filter(([, { weight }]) => weight >= bar);
  if (subject.length === 0) return undefined;
  const nearest = Math.min(...subject.map(([, { gap }]) => gap));
  return { event: event.unit, readings: new Set(subject.filter(([, { gap }]) => gap === nearest).map(([unit]) => unit)) };
}
