/**
 * A question asking what something read at a named moment: "How full was kafka-2's data disk at
 * noon UTC on 7 March?", "How much memory was feature-redis using on the evening of 9 April?". Its
 * answer is a record stamped then (a metric row, a log line, a timeline entry with its clock time); a
 * sentence stating no such moment can describe the system but not its reading then. On freight dev
 * d48 the timeline's line about kafka-2's disk, repeating the question's names in a block whose header
 * matched and corroborated by a commit, outscored the 12:00 row three to one.
 */
import type { TimeWindow } from '../../runtime/contracts/retriever';
import { askedWindows, instantInWindows } from '../../runtime/text/moment-terms';
import { asksReading } from '../../runtime/text/reading-question';

/** The stretches of time a reading question names (an instant ± half an hour, a part of a day); none for any other question. */
export function askedReadingWindows(question: string): readonly TimeWindow[] {
  return asksReading(question) ? askedWindows(question) : [];
}

/** Whether a unit's stated moments fall in one of the windows. */
export const statesMomentIn = (moments: ReadonlySet<string>, windows: readonly TimeWindow[]): boolean =>
  windows.length > 0 && [...moments].some((moment) => instantInWindows(moment, windows));
