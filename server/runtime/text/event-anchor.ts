/**
 * A record asked for by its place in time relative to something else: a reading at the moment of an
 * event ("How big was the sink lag around the time ConnectSinkLagHigh fired on 6 March?", "Right before
 * the sink was restarted on 9 March, how many records behind was it?"), the last record before (first
 * after) an event ("when did the sink last commit a file before the uploads were denied?"), or a day's
 * first or last record ("its first warning on 14 April"). The question names the event and its day, not
 * the clock time; a context sentence gives that ("`ConnectSinkLagHigh` fired at 18:21"). This reads the
 * question's side of it (which side of the event, the event's words and names, its day) and dates the
 * event in given sentences. The planner searches the stamped sources on that day (searchWindows), the
 * executor narrows that search once its first retrieval dates the event (execution/event-anchored-window.ts),
 * and the reader quotes the record stamped nearest it (adapters/models/extractive-event-anchor.ts).
 */
import type { TimeWindow } from '../contracts/retriever';
import { MONTH_NAMES, askedInstants, askedMoments, askedWindows, clockTimesIn } from './moment-terms';
import { askedCrossing } from './crossing-question';
import { asksReading } from './reading-question';
import { namedEntities } from './named-entities';
import { contentTerms } from './text-terms';

export type AnchorSide = 'before' | 'around' | 'after';

const DATED_DAY = /^\d{4}-/;

/**
 * "right before X", "just after X", "around the time X", "at the moment when X", "by the time X", and
 * "when X" inside a reading question ("how big was the lag when the alert fired?"; not a part asking
 * "when did …"): the event clause up to a comma or the next part.
 */
const ANCHOR = /\b(?:(?:right|just|shortly|immediately)\s+(before|after)|(around|about|at|by)\s+the\s+(?:time|moment|point)(?:\s+(?:when|that))?|(?<=\w\s+)(when)(?!\s+(?:did|does|do|was|were|is|are|has|had|will|would|should|can|could)\b))\s+([^,;?]+)/i;
/**
 * "When did the sink last manage to commit a file before the uploads started being denied?", "when
 * did it first report a full cache after the restart?": the record asked for is the one nearest the
 * event on that side, whatever it reads (freight dev d96).
 */
const LAST_BEFORE = /\b(?:(last)\b(?:(?!\b(?:before|after)\b)[^,;?])*\b(before)|(first)\b(?:(?!\b(?:before|after)\b)[^,;?])*\b(after))\s+([^,;?]+)/i;
/** Where the clause ends when the next part follows without a comma ("… fired and what time was it"). */
const NEXT_PART = /\s+(?:and|but)\s+(?:when|what|which|how|who|where|why|did|was|were|is)\b.*$/i;
/**
 * What names one event rather than a system many sentences name: a CamelCase name ("ConnectSinkLagHigh",
 * an alert, an exception, a job) or an id with three digits ("e619737", "KDP-INC-031"). "feature-redis"
 * is in every line about it; preferring sentences naming it dated the event by a metric row (dev d77).
 */
const CAMEL_CASE = /\b[A-Z][a-z0-9]+(?:[A-Z][a-z0-9]*){2,}\b/g;
const EVENT_ID = /(?:\d[^\d]*){3}/;
const MONTH_WORD = new RegExp(String.raw`^(?:${MONTH_NAMES})$`, 'i');

export interface EventAnchor {
  readonly side: AnchorSide;
  /** The event's words, without its day ("connectsinklaghigh", "fire"). */
  readonly eventTerms: ReadonlySet<string>;
  /** The event's own names in the clause, as terms ("connectsinklaghigh" for ConnectSinkLagHigh, "kdp-inc-031"). */
  readonly names: ReadonlySet<string>;
  /** The days the clause names, as moment terms ("03-06", "2026-03-06"). */
  readonly days: ReadonlySet<string>;
}

/**
 * The event a question's record is anchored to: a reading asked around an event, or the last record
 * before (first after) one. Undefined for any other question, and when the clause names its own time.
 */
export function askedEventAnchor(question: string): EventAnchor | undefined {
  const ordinal = LAST_BEFORE.exec(question);
  const reading = ordinal ? undefined : asksReading(question) ? ANCHOR.exec(question) : null;
  const [word, rawClause] = ordinal ? [ordinal[2] ?? ordinal[4], ordinal[5]] : reading ? [reading[1] ?? reading[2] ?? reading[3], reading[4]] : [];
  if (!word || !rawClause) return undefined;
  const clause = rawClause.replace(NEXT_PART, '');
  if (clockTimesIn(clause).length > 0) return undefined;
  const eventTerms = new Set(contentTerms(clause).filter((term) => !/\d/.test(term) && !MONTH_WORD.test(term) && term !== 'time'));
  if (eventTerms.size === 0) return undefined;
  const lower = word.toLowerCase();
  const side: AnchorSide = lower === 'before' || lower === 'by' ? 'before' : lower === 'after' ? 'after' : 'around';
  // The day may be the question's frame rather than the clause's ("On Friday 6 March, when did … before …").
  const days = (text: string) => askedMoments(text).filter((moment) => !moment.includes('t'));
  const clauseDays = days(clause);
  const names = new Set([...(clause.match(CAMEL_CASE) ?? []), ...namedEntities(clause).filter((name) => EVENT_ID.test(name))].map((name) => contentTerms(name)[0]).filter((term) => term !== undefined));
  return { side, eventTerms, names, days: new Set(clauseDays.length > 0 ? clauseDays : days(question)) };
}

/**
 * "At what time on 14 April did eta-api log its first warning about missing features?", "what was the
 * last file committed on 6 March?": the earliest (latest) record of the subject on the one day the
 * question is set on ("on 14 April"). Only a determiner's ordinal ("its first warning"): "when did the
 * log first show the new count" means first after the change the question names (dev d76), and "the
 * last retry of the 23 March run" names the run by its date, whose retries ran the next night (dev d64).
 * Not "last week", "the first time": those name a span, not the record.
 */
const DAY_ORDINAL = /\b(?:its|the|their)\s+(?:(first|earliest)|(last|latest|final))\s+(?!(?:\d|few\b|couple\b|week|night|month|year|time|hour|day|weekend|monday|tuesday|wednesday|thursday|friday|saturday|sunday)\b)/i;
/** A day the question is set on: "on 14 April", "on Friday 6 March". */
const ON_DAY = /\bon\s+((?:[a-z]+day\s+)?(?:the\s+)?[\w-]+(?:\s+[\w,]+){0,2})/gi;

/** The day a question asks the first or last record of, with the bound as an event: the day's start (first) or end (last). */
export function askedDayBound(question: string): { readonly side: AnchorSide; readonly day: string } | undefined {
  if (LAST_BEFORE.test(question) || askedInstants(question).length > 0) return undefined;
  // "When did static_eta first rise above 1 % on 14 April?" asks for a first record too: the first that passed (text/crossing-question.ts).
  const ordinal = DAY_ORDINAL.exec(question);
  const side: AnchorSide | undefined = ordinal ? (ordinal[1] ? 'after' : 'before') : askedCrossing(question) ? 'after' : undefined;
  if (!side) return undefined;
  const day = oneDaySetOn(question);
  return day === undefined ? undefined : { side, day };
}

/** The one day a question is set on ("on 23 March 2026"), the dated one when it names a year too. */
function oneDaySetOn(question: string): string | undefined {
  const days = [...new Set([...question.matchAll(ON_DAY)].flatMap((match) => askedMoments(match[1]).filter((moment) => !moment.includes('t'))))];
  const dated = days.filter((day) => DATED_DAY.test(day));
  return dated.length === 1 ? dated[0] : dated.length === 0 && days.length === 1 ? days[0] : undefined;
}

/**
 * "At what time on 9 March 2026 was the restart of the failed tasks requested?": the time of a
 * record stamped on the one day the question is set on.
 */
const TIME_ON_DAY = /\bwhat\s+time\s+on\b/i;
export const askedDayRecord = (question: string): string | undefined => (TIME_ON_DAY.test(question) ? oneDaySetOn(question) : undefined);

/** Whether stated moments (moment-terms.ts statedMoments) name days, none of them `day` (a moment term, any year or dated). */
export const statesOnlyOtherDays = (moments: ReadonlySet<string>, day: string): boolean => {
  const days = [...moments].filter((moment) => !moment.includes('t'));
  return days.length > 0 && !days.some((stated) => stated.slice(-5) === day.slice(-5));
};

/** The window of a day-bound question's day, and its bound in minutes (any year). */
export function dayBoundWindow(bound: { readonly side: AnchorSide; readonly day: string }): { readonly at: number; readonly window: TimeWindow } {
  const anyYearDay = bound.day.slice(-5);
  return { at: minutesOf(anyYearDay, bound.side === 'after' ? '00:00' : '23:59') + (bound.side === 'after' ? -1 : 1), window: { from: `${anyYearDay}T00:00`, to: `${anyYearDay}T23:59`, anyYear: true } };
}

/** A record this many minutes or more away from the event was not taken around it. */
export const MAX_GAP_MINUTES = 6 * 60;
const INSTANT = /^(?:\d{4}-)?(\d{2}-\d{2})t(\d{2}:\d{2})$/;

/** Minutes since the start of the year (any year: the day and time as a line states them). */
function minutesOf(day: string, time: string): number {
  return Date.parse(`2000-${day}T${time}:00Z`) / 60_000;
}

/** An instant moment term ("2026-03-06t18:00", "03-06t18:00") in minutes since the start of its year; undefined for a bare day. */
export function minutesOfInstant(moment: string): number | undefined {
  const instant = INSTANT.exec(moment);
  return instant ? minutesOf(instant[1], instant[2]) : undefined;
}

/** A sentence with its content terms and the moments it states (moment-terms.ts statedMoments). */
export interface DatedText {
  readonly text: string;
  readonly termSet: ReadonlySet<string>;
  readonly moments: ReadonlySet<string>;
}

/**
 * The sentence stating the event with a clock time, and that moment in minutes: the one holding the
 * most of the event's weight, at least half of it ("restarted" alone is any restart). When the event
 * names something ("ConnectSinkLagHigh went off"), a sentence naming it is preferred: "all four tasks
 * went to FAILED" shares a rarer word and dates another event.
 */
export function eventMomentIn<T extends DatedText>(anchor: EventAnchor, candidates: readonly T[], idf: (term: string) => number): { candidate: T; at: number } | undefined {
  const naming = candidates.filter((candidate) => anchor.names.size > 0 && [...anchor.names].every((name) => candidate.termSet.has(name)));
  // Naming the event's subject is enough of it: the other words may be said otherwise ("went off" for a page that "fired").
  return heaviestDated(anchor, naming, idf, 0) ?? heaviestDated(anchor, candidates, idf, MIN_EVENT_SHARE);
}

/** The share of the event's weight a sentence not naming its subject must hold. */
const MIN_EVENT_SHARE = 0.5;

function heaviestDated<T extends DatedText>(anchor: EventAnchor, candidates: readonly T[], idf: (term: string) => number, minShare: number): { candidate: T; at: number } | undefined {
  const total = [...anchor.eventTerms].reduce((sum, term) => sum + idf(term), 0);
  const singleDay = [...anchor.days].find((day) => day.length === 5 && anchor.days.size <= 2);
  let best: { candidate: T; at: number; weight: number } | undefined;
  for (const candidate of candidates) {
    const weight = [...anchor.eventTerms].filter((term) => candidate.termSet.has(term)).reduce((sum, term) => sum + idf(term), 0);
    if (weight < total * minShare || (best && weight <= best.weight)) continue;
    const at = statedMoment(candidate, anchor, singleDay);
    if (at !== undefined) best = { candidate, at, weight };
  }
  return best;
}

/** When a sentence says its event happened: its own stamp on the asked day, or a bare clock time in a sentence of no other day. */
function statedMoment(candidate: DatedText, anchor: EventAnchor, singleDay: string | undefined): number | undefined {
  for (const moment of candidate.moments) {
    const instant = INSTANT.exec(moment);
    if (instant && (anchor.days.size === 0 || anchor.days.has(instant[1]))) return minutesOf(instant[1], instant[2]);
  }
  if ([...candidate.moments].some((moment) => !moment.includes('t')) || !singleDay) return undefined;
  const [time] = clockTimesIn(candidate.text);
  return time === undefined ? undefined : minutesOf(singleDay, time);
}

/** The window on the asked side of an event at `at` (minutes since the start of any year), as any-year bounds. */
export function windowNear(at: number, side: AnchorSide): TimeWindow {
  const [from, to] = side === 'before' ? [at - MAX_GAP_MINUTES, at - 1] : side === 'after' ? [at + 1, at + MAX_GAP_MINUTES] : [at - MAX_GAP_MINUTES / 2, at + MAX_GAP_MINUTES / 2];
  const stamp = (minutes: number) => new Date(minutes * 60_000).toISOString().slice(5, 16);
  return { from: stamp(from), to: stamp(to), anyYear: true };
}


/**
 * The stretches of time a search of stamped sources covers for a goal: the instants it names
 * (askedWindows), or for a record anchored to an event of a named day (a day's first or last record,
 * the time of a record "on" a day), that whole day. A day alone is no window otherwise (it put lines
 * of the day in place of the evidence, moment-terms.ts); here the record asked for is of that day, and among every line and row
 * of the corpus it ranks like any other sharing the subject's words (freight fresh f81: the 06:00 lag
 * row was never retrieved).
 */
export function searchWindows(goal: string): TimeWindow[] {
  return askedWindows(goal).length > 0 ? askedWindows(goal) : anchorDayWindows(goal);
}

/**
 * Whether the goal's stamped search covers an event's day, to be narrowed once the evidence dates the
 * event. A day's first or last record needs no evidence: its bound is the day's start or end.
 */
export const anchorsOnEvidence = (goal: string): boolean => askedWindows(goal).length === 0 && (askedEventAnchor(goal)?.days.size ?? 0) > 0;

function anchorDayWindows(goal: string): TimeWindow[] {
  const anchor = askedEventAnchor(goal);
  if (!anchor) {
    const bound = askedDayBound(goal);
    if (bound) return [dayBoundWindow(bound).window];
    const recordDay = askedDayRecord(goal);
    return recordDay ? [wholeDay(recordDay)] : [];
  }
  const dated = [...anchor.days].filter((day) => DATED_DAY.test(day));
  const days = dated.length > 0 ? dated : [...anchor.days];
  return days.map(wholeDay);
}

/** A day's window: of that year when the day is dated, of any year otherwise. */
const wholeDay = (day: string): TimeWindow => ({ from: `${day}T00:00`, to: `${day}T23:59`, ...(DATED_DAY.test(day) ? {} : { anyYear: true }) });
