/**
 * Calendar dates and clock times in one notation, so a question's "09:00 UTC on 14 April 2026" meets
 * a log line's "2026-04-14T09:00:51Z" and a metric row's "2026-03-08T00:00:00Z" meets "midnight at
 * the start of Sunday 8 March 2026". Words never match the other notation, so without this the line
 * the question points at ranks like any other line of that day. This is the normalisation step of
 * temporal taggers (TimeML values; Strötgen & Gertz, HeidelTime, 2010), reduced to what
 * operational text uses: ISO dates with an optional time, "14 April 2026", "April 14, 2026",
 * "9 March" (any year), a question's "on 14/04" or "14.04.2026", "09:00", "midnight", "noon" and
 * "midday".
 *
 * A moment term is "yyyy-mm-dd", "mm-dd" (the day in any year) or either one followed by "thh:mm".
 */
import type { TimeWindow } from '../contracts/retriever';

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
/** A month name or its abbreviation, not the start of a longer word ("may-days", "marching"). */
/** The English month names and their abbreviations, as one regex alternation (no group). */
export const MONTH_NAMES = String.raw`jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?`;
const MONTH = String.raw`(${MONTH_NAMES})(?![\w-])`;
const DAY_MONTH_YEAR = new RegExp(String.raw`\b(\d{1,2})(?:st|nd|rd|th)?\s+${MONTH}\.?(?:,?\s+(\d{4}))?\b`, 'gi');
const MONTH_DAY_YEAR = new RegExp(String.raw`\b${MONTH}\.?\s+(\d{1,2})(?:st|nd|rd|th)?(?:,?\s+(\d{4}))?\b`, 'gi');
const ANY_DIGIT = /\d/;
/**
 * A day in digits as people type it in a question: "on 14/04", "since 04/14/2026", "14.04.2026".
 * Only after a preposition of time or with its year, so "4/4 tasks" stays a count and "since 1.5
 * hours" a duration. The order is read off the numbers: a part above 12 is the day; when both could
 * be the month, both readings are asked (a line states one day, so the wrong reading matches nothing).
 */
const NUMERIC_DATE = /(?:\b(?:on|since|from|until|till|by|before|after)\s+(\d{1,2})\/(\d{1,2})(?:\/(\d{4}))?|\b(\d{1,2})([/.])(\d{1,2})\5(\d{4}))(?![\d/])/gi;
const ISO_DATE = /\b(\d{4})-(\d{2})-(\d{2})(?:[t ](\d{2}):(\d{2}))?/gi;
/**
 * A clock time: 12-hour with am/pm ("6 pm", "9:05 p.m.", "12 am") or 24-hour ("18:05"), or a named
 * moment. The 12-hour form is tried first, so "9:05 pm" is 21:05, not the 09:05 its digits say.
 */
const TWELVE_HOUR = String.raw`\b(1[0-2]|0?[1-9])(?::([0-5]\d))?\s?([ap])\.?m\b\.?`;
const CLOCK_SOURCE = String.raw`${TWELVE_HOUR}|\b([01]?\d|2[0-3]):([0-5]\d)\b|\b(midnight|noon|midday)\b`;
const CLOCK = new RegExp(CLOCK_SOURCE, 'gi');
const ANY_CLOCK = new RegExp(CLOCK_SOURCE, 'i');

/** Whether the text names a time of day ("09:00", "6 pm", "at midnight"). */
export const namesTimeOfDay = (text: string): boolean => ANY_CLOCK.test(text);

/** The times of day a text states, as "hh:mm" ("fired at 18:21" → 18:21), leaving out those of its ISO stamps. */
export function clockTimesIn(text: string): string[] {
  return [...text.replace(ISO_DATE, ' ').matchAll(CLOCK)].map(clockOf);
}

/** A CLOCK match as "hh:mm" on the 24-hour clock (12 am is 00:00, 12 pm is 12:00). */
function clockOf(match: RegExpMatchArray | RegExpExecArray): string {
  const [, hour12, minute12, half, hour24, minute24, named] = match;
  if (named) return named.toLowerCase() === 'midnight' ? '00:00' : '12:00';
  if (half) return `${pad((Number(hour12) % 12) + (half.toLowerCase() === 'p' ? 12 : 0))}:${minute12 ?? '00'}`;
  return `${pad(hour24)}:${minute24}`;
}

const pad = (value: number | string) => String(value).padStart(2, '0');

/** "In February", "in early March", "during January 2026": a month named as the frame, with no day. */
const MONTH_FRAME = new RegExp(String.raw`\b(?:in|during|throughout|over)\s+(?:(?:early|late|mid)[\s-]+)?${MONTH}(?!\.?\s+\d{1,2}\b)`, 'gi');

/** The months (as "MM") a question names as its frame without a day: "In February the job failed now and then". */
export function askedMonths(question: string): string[] {
  if (askedMoments(question).length > 0) return [];
  return [...new Set([...question.matchAll(MONTH_FRAME)].map((match) => pad(monthNumber(match[1]))))];
}

function monthNumber(name: string): number {
  return MONTHS.indexOf(name.slice(0, 3).toLowerCase()) + 1;
}

function validDay(month: number, day: number): boolean {
  return month >= 1 && month <= 12 && day >= 1 && day <= 31;
}

/** A clock time written right after a day in words: "Mar 9 08:05 —", "9 March, 08:14", "Mar 9 6:05 pm". */
const TIME_AFTER_DAY = new RegExp(String.raw`^,?\s+(?:at\s+)?(?:${TWELVE_HOUR}|([01]?\d|2[0-3]):([0-5]\d)\b)`, 'i');

/**
 * The days written in words ("14 April 2026", "April 14", "9 March"); with `instants`, also each such
 * day with the clock time written right after it, as a timeline entry states its moment.
 */
function wordDays(text: string, instants?: Set<string>): Set<string> {
  const days = new Set<string>();
  const add = (month: number, day: number, year: string | undefined, end: number) => {
    const dated = new Set<string>();
    addDay(dated, month, day, year);
    for (const term of dated) days.add(term);
    const time = instants ? TIME_AFTER_DAY.exec(text.slice(end, end + 16)) : null;
    if (time) for (const term of dated) instants?.add(instant(term, clockOf(time)));
  };
  for (const match of text.matchAll(DAY_MONTH_YEAR)) add(monthNumber(match[2]), Number(match[1]), match[3], match.index! + match[0].length);
  for (const match of text.matchAll(MONTH_DAY_YEAR)) add(monthNumber(match[1]), Number(match[2]), match[3], match.index! + match[0].length);
  return days;
}

/** The days and times a question names, as the moment terms a matching line must hold. */
export function askedMoments(question: string): string[] {
  // Every day form (ISO, "14 April", "April 14") has a digit, and a moment term needs a day:
  // most goals have none, and the five date and clock patterns cost ~70 µs a plan for nothing.
  if (!ANY_DIGIT.test(question)) return [];
  const days = wordDays(question);
  for (const match of question.matchAll(NUMERIC_DATE)) {
    const [first, second, year] = match[1] !== undefined ? [Number(match[1]), Number(match[2]), match[3]] : [Number(match[4]), Number(match[6]), match[7]];
    if (first <= 12) addDay(days, first, second, year);
    if (second <= 12) addDay(days, second, first, year);
  }
  // An ISO stamp with its time ("2026-03-10T10:31") is an instant of its own day only.
  const stamped: string[] = [];
  for (const match of question.matchAll(ISO_DATE)) {
    const [, year, month, day, hour, minute] = match;
    addDay(days, Number(month), Number(day), year);
    if (hour !== undefined && validDay(Number(month), Number(day))) stamped.push(instant(`${year}-${month}-${day}`, `${hour}:${minute}`), instant(`${month}-${day}`, `${hour}:${minute}`));
  }
  const withoutDates = question.replace(ISO_DATE, ' ');
  const times = [...withoutDates.matchAll(CLOCK)].map(clockOf);
  const terms = [...days];
  for (const day of days) for (const time of times) terms.push(instant(day, time));
  for (const moment of stamped) if (!terms.includes(moment)) terms.push(moment);
  return terms;
}

const instant = (day: string, time: string) => `${day}t${time}`;
const INSTANT = /t\d{2}:\d{2}$/;

/** Only the moments of askedMoments that carry a time of day ("2026-04-14t09:00"), not bare days. */
export function askedInstants(question: string): string[] {
  return askedMoments(question).filter((moment) => INSTANT.test(moment));
}

/** A dated day also as the day in any year: "on 14 April" in a postmortem of 2026 means the same day. */
function addDay(days: Set<string>, month: number, day: number, year: string | undefined): void {
  if (!validDay(month, day)) return;
  if (year) days.add(`${year}-${pad(month)}-${pad(day)}`);
  days.add(`${pad(month)}-${pad(day)}`);
}

/**
 * The moment terms a line states: each date as itself and as its day in any year ("14 April" only
 * as the latter), an ISO date with its hh:mm when it has one, a date in words with the clock time
 * written right after it ("Mar 9 08:05").
 */
export function statedMoments(text: string): Set<string> {
  const instants = new Set<string>();
  const terms = wordDays(text, instants);
  for (const term of instants) terms.add(term);
  for (const match of text.matchAll(ISO_DATE)) {
    const [, year, month, day, hour, minute] = match;
    if (!validDay(Number(month), Number(day))) continue;
    for (const date of [`${year}-${month}-${day}`, `${month}-${day}`]) {
      terms.add(date);
      if (hour !== undefined) terms.add(instant(date, `${hour}:${minute}`));
    }
  }
  return terms;
}

/**
 * Minutes either side of an asked instant a stamped chunk may start or end in: "at midnight" meets
 * the 00:00 row of an hourly series and the log window around it, not the whole day.
 */
export const INSTANT_WINDOW_MINUTES = 30;

const DATED = /^\d{4}-/;
/** A leap year, so an undated 29 February is a day. */
const ANY_YEAR = '2000';

const minuteOf = (stamp: Date) => stamp.toISOString().slice(0, 16);

/** An instant's window: ±INSTANT_WINDOW_MINUTES around it. */
function windowOf(instantTerm: string): TimeWindow {
  const anyYear = !DATED.test(instantTerm);
  const dated = anyYear ? `${ANY_YEAR}-${instantTerm}` : instantTerm;
  const at = Date.parse(`${dated.slice(0, 10)}T${dated.slice(11)}:00Z`);
  const [from, to] = [-1, 1].map((side) => minuteOf(new Date(at + side * INSTANT_WINDOW_MINUTES * 60_000)));
  return anyYear ? { from: from.slice(5), to: to.slice(5), anyYear } : { from, to };
}

/**
 * The stretches of time a question points at, for a search of stamped chunks (logs, metrics rows,
 * events): one around each instant it names (a day with a time of day). A day alone is not one: it
 * is the frame of every line of that day's log, and searching it put lines of the day in place of
 * the evidence (freight dev d07, d24, d31; tune q01, q15). An instant it also dates with a year is
 * not searched again in every year.
 */
let lastQuestion: string | undefined;
let lastWindows: readonly TimeWindow[] = [];

export function askedWindows(question: string): TimeWindow[] {
  // One-entry memo: the plan-cache key and the graph stage ask for the same goal in a plan.
  if (question !== lastQuestion) {
    lastWindows = Object.freeze(readWindows(question));
    lastQuestion = question;
  }
  return [...lastWindows];
}

function readWindows(question: string): TimeWindow[] {
  // An instant and a part of the day both need a day, and every day is written with a digit.
  if (!ANY_DIGIT.test(question)) return [];
  const instants = askedInstants(question);
  const dated = new Set(instants.filter((moment) => DATED.test(moment)).map((moment) => moment.slice(5)));
  return [...instants.filter((moment) => DATED.test(moment) || !dated.has(moment)).map(windowOf), ...partOfDayWindows(question)];
}

/**
 * Parts of the day as the stretches people mean by them (TimeML's MO/AF/EV values; HeidelTime gives
 * them hours in the same way). "On the evening of 9 April" points at that evening's rows and lines
 * as "at 18:00 on 9 April" points at one (freight dev d60).
 */
const PARTS_OF_DAY: Readonly<Record<string, readonly [string, string]>> = { morning: ['06:00', '11:59'], afternoon: ['12:00', '17:59'], evening: ['17:00', '23:59'] };
/** Not "every morning", "each evening": a routine, not a moment. */
const PART_OF_DAY = /(?<!\b(?:each|every)\s+)\b(morning|afternoon|evening)\b/gi;

/** A window for each part of the day a question names, on the one day it names (several days: whose evening is unclear). */
function partOfDayWindows(question: string): TimeWindow[] {
  const parts = new Set([...question.matchAll(PART_OF_DAY)].map((match) => match[1].toLowerCase()));
  if (parts.size === 0) return [];
  const days = askedMoments(question).filter((moment) => !INSTANT.test(moment));
  const datedDays = days.filter((day) => DATED.test(day));
  const day = datedDays.length === 1 ? datedDays[0] : datedDays.length === 0 && days.length === 1 ? days[0] : undefined;
  if (!day) return [];
  const anyYear = !DATED.test(day);
  return [...parts].map((part) => ({ from: `${day}T${PARTS_OF_DAY[part][0]}`, to: `${day}T${PARTS_OF_DAY[part][1]}`, ...(anyYear ? { anyYear } : {}) }));
}

/** Whether a stated instant term ("2026-04-09t18:00", "04-09t18:00") falls in one of the windows. */
export function instantInWindows(term: string, windows: readonly TimeWindow[]): boolean {
  if (!INSTANT.test(term)) return false;
  const upper = term.toUpperCase().replace(/^(\d{4}-\d{2}-\d{2}|\d{2}-\d{2})T/, '$1T');
  return windows.some((window) => {
    const stamp = window.anyYear ? (DATED.test(upper) ? upper.slice(5) : upper) : upper;
    if (!window.anyYear && !DATED.test(stamp)) return false;
    return stamp >= window.from && stamp <= window.to;
  });
}
