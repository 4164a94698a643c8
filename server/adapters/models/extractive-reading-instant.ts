/**
 * A question asking what something read at a named instant: "How full was kafka-2's data disk at
 * noon UTC on 7 March?", "How far behind was the sink at midnight UTC on Sunday?". Its answer is
 * the record stamped with that instant (a metric row, a log line, a timeline entry with its clock
 * time); a sentence stating no such instant can describe the system but not its reading then. On
 * freight dev d48 the timeline's line about kafka-2's disk, repeating the question's names in a
 * block whose header matched and corroborated by a commit, outscored the 12:00 row three to one.
 */
import { askedInstants } from '../../runtime/text/moment-terms';

/** Words asking for a reading: an amount, a level, a count, a distance behind. */
const READING = /\bhow (?:full|much|many|high|low|far|big|large|old|long|deep|fast|slow|busy|hot)\b|\bwhat (?:was|were|is|did)\b[^?]*\b(?:value|level|lag|size|usage|rate|ratio|count|reading|percentage|latency|utili[sz]ation|load)\b/i;

/** The instants a reading question names ("2026-03-07t12:00", "03-07t12:00"); empty for any other question. */
export function askedReadingInstants(question: string): readonly string[] {
  return READING.test(question) ? askedInstants(question) : [];
}
