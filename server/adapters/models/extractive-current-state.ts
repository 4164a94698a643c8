/**
 * "Is that still true? What retention does the topic have now?" asks for the state as it stands, and
 * a corpus keeps every state a setting went through: the commit shortening the retention to 24 hours
 * (3 February) shares more of the question's words than the postmortem's action item putting it back
 * to 72 hours (done 10 March), and was quoted alone (freight fresh f02). Asked for the present, a
 * dated statement that a later one among the strong candidates supersedes keeps a share of its score,
 * and the latest gains.
 * A commit's lines are dated by its subject (the commit's own date), a document's sentence by the day
 * it states. A question naming a day asks for that day's state, not the present, and is left alone.
 */
import { askedMoments, askedMonths } from '../../runtime/text/moment-terms';
import type { ScoredUnit } from './extractive-quoted-subjects';

/**
 * Words asking for the present. "Current" only as what is asked ("what is the current retention?"):
 * "Steve Johnson is the current head coach at a university which …" names a person by his role, and
 * asks nothing about the present (HotpotQA train100, tune half).
 */
const ASKS_PRESENT = /\b(?:now(?! and (?:then|again))|currently|at the moment|at present|presently|today|these days|nowadays|still|any ?more|as it stands)\b|\b(?:what|which)(?:'s|\s+is|\s+are)?\s+the\s+current\b/i;

// "Every now and then" is how often, not when; a question naming a day or a month asks about that time.
export const asksCurrentState = (question: string): boolean => ASKS_PRESENT.test(question) && askedMoments(question).length === 0 && askedMonths(question).length === 0;

/** Candidates scoring at least this share of the best are the statements the present competes between. */
const CONTENDER_SHARE = 0.33;
/** What a superseded statement keeps of its score. */
const SUPERSEDED_WEIGHT = 0.55;
/** The latest statement's gain: the present state it is, it is what the question asks. */
const LATEST_GAIN = 1.5;

const FULL_DAY = /^\d{4}-\d{2}-\d{2}$/;
const MONTH_DAY = /^\d{2}-\d{2}$/;

/** The latest day a unit states, as "YYYY-MM-DD" or "MM-DD" when it names no year. */
function latestDay(moments: ReadonlySet<string>): string | undefined {
  const days = [...moments].filter((moment) => FULL_DAY.test(moment) || MONTH_DAY.test(moment));
  const full = days.filter((day) => FULL_DAY.test(day)).sort();
  if (full.length > 0) return full[full.length - 1];
  return days.sort()[days.length - 1];
}

/** Each unit's day: a commit's is its subject's (its lines and message state none of their own), a document sentence's the latest it states. */
function unitDays(scored: readonly ScoredUnit[]): (string | undefined)[] {
  const commitDay = new Map<number, string>();
  for (const { unit } of scored) {
    const day = unit.role === 'subject' ? latestDay(unit.moments) : undefined;
    if (day !== undefined) commitDay.set(unit.ref, day);
  }
  return scored.map((entry) => commitDay.get(entry.unit.ref) ?? latestDay(entry.unit.moments));
}

/** What a statement dated in another month than the one asked keeps of its score, and the gain of one dated in it. */
const OTHER_MONTH_WEIGHT = 0.4;
const ASKED_MONTH_GAIN = 1.5;

/**
 * "In February the hourly materialization failed now and then at :05. What was timing out?": a month
 * named as the frame asks about what happened in it. Among the strong candidates, a statement dated in
 * another month gives way to one dated in it: the April commit fixing a session leak outscored the
 * February commit saying the offline store timed out (freight fresh f110).
 */
export function withAskedMonthFirst(input: readonly ScoredUnit[], months: readonly string[]): ScoredUnit[] {
  const top = input.reduce((best, entry) => Math.max(best, entry.score), 0);
  if (months.length === 0 || top <= 0) return [...input];
  const days = unitDays(input);
  const monthOf = (day: string) => (FULL_DAY.test(day) ? day.slice(5, 7) : day.slice(0, 2));
  const dated = input.map((entry, index) => entry.score >= CONTENDER_SHARE * top && days[index] !== undefined);
  if (!dated.some((contender, index) => contender && months.includes(monthOf(days[index]!)))) return [...input];
  return input.map((entry, index) => (dated[index] ? { unit: entry.unit, score: entry.score * (months.includes(monthOf(days[index]!)) ? ASKED_MONTH_GAIN : OTHER_MONTH_WEIGHT) } : entry));
}

export function withPresentStateFirst(input: readonly ScoredUnit[]): ScoredUnit[] {
  // A commit states the state it leaves by its subject ("eta-api: back to 4 replicas"); its message
  // explains ("6 replicas changed nothing"), and asked for the present, the subject stands for the
  // commit at the best score of its lines (fresh f51 quoted the explanation).
  const bestOfItem = new Map<number, number>();
  for (const { unit, score } of input) bestOfItem.set(unit.ref, Math.max(bestOfItem.get(unit.ref) ?? 0, score));
  const scored = input.map((entry) => (entry.unit.role === 'subject' ? { unit: entry.unit, score: bestOfItem.get(entry.unit.ref)! } : entry));
  const top = scored.reduce((best, entry) => Math.max(best, entry.score), 0);
  if (top <= 0) return [...scored];
  const days = unitDays(scored);
  const contending = scored.map((entry, index) => entry.score >= CONTENDER_SHARE * top && days[index] !== undefined);
  const contenderDays = days.filter((day, index): day is string => contending[index]);
  // A day without its year is read in the year of the latest full date among the contenders.
  const year = contenderDays.filter((day) => FULL_DAY.test(day)).sort().at(-1)?.slice(0, 5) ?? '';
  const comparable = (day: string) => (MONTH_DAY.test(day) ? `${year}${day}` : day);
  const latest = contenderDays.map(comparable).sort().at(-1);
  if (latest === undefined) return [...scored];
  return scored.map((entry, index) =>
    contending[index] ? { unit: entry.unit, score: entry.score * (comparable(days[index]!) < latest ? SUPERSEDED_WEIGHT : LATEST_GAIN) } : entry,
  );
}
