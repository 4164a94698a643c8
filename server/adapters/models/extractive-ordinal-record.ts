import type { ScoredUnit } from './extractive-quoted-subjects';
import { jaccard } from './extractive-term-statistics';
import type { Unit } from './extractive-units';

/**
 * "After the first try of dbt_build failed, at what time did that try end?": a job logs the same record
 * for each try ("Marking task as UP_FOR_RETRY …"), and the reader quoted the later try's, which shares as
 * many of the question's words (freight fresh f275). Asked for the first, each quoted log record brings
 * the earliest record of its kind logged that day by the same source: the same words but for the numbers.
 * Asked for the last ("When did eta-api log its last 'features missing' warning?", fresh f345), it brings
 * the latest.
 */
const ASKS_ORDINAL = /\b(first|earliest|last|latest|final)\s+(?:(?:'[^']*'|"[^"]*"|[\w.-]+)\s+){0,3}?(?:try|tries|attempt|run|retry|failure|error|time|warning|record|line|message|entry)s?\b/i;
/** Two records of one kind: the same template, other ids and times. */
const SAME_KIND_JACCARD = 0.7;
/** A log line's leading stamp: its day and its time, sortable as text. */
const STAMP = /^\s*\[?(\d{4}-\d{2}-\d{2})[t ](\d{2}:\d{2}:\d{2}(?:[.,]\d+)?)/i;

export type RecordOrdinal = 'first' | 'last';

/** Which of a kind of record the question asks for, and the word it asks with ("last" is no word of the record's). */
export function askedRecordOrdinal(question: string): { readonly ordinal: RecordOrdinal; readonly word: string } | undefined {
  const asked = ASKS_ORDINAL.exec(question);
  if (!asked) return undefined;
  const word = asked[1].toLowerCase();
  return { ordinal: word === 'first' || word === 'earliest' ? 'first' : 'last', word };
}

/**
 * The picked units, each quoted log record followed by the first (or last) record of its kind that day, when it
 * is another one: right after it, since an answer too long for the model's output budget loses its last lines.
 */
export function withOrdinalRecords(picked: readonly ScoredUnit[], units: readonly Unit[], ordinal: RecordOrdinal): readonly ScoredUnit[] {
  const stamped = units.flatMap((unit) => {
    const stamp = STAMP.exec(unit.text);
    return stamp ? [{ unit, day: stamp[1], time: stamp[2] }] : [];
  });
  const result: ScoredUnit[] = [];
  for (const entry of picked) {
    result.push(entry);
    const record = stamped.find((candidate) => candidate.unit === entry.unit);
    if (!record) continue;
    const beyond = (other: { time: string }) => (ordinal === 'first' ? other.time < record.time : other.time > record.time);
    const outermost = stamped
      .filter((other) => other.unit.source === record.unit.source && other.day === record.day && beyond(other) && jaccard(other.unit.shape, record.unit.shape) >= SAME_KIND_JACCARD)
      .sort((left, right) => (left.time < right.time ? -1 : 1)).at(ordinal === 'first' ? 0 : -1);
    if (outermost && !result.some((kept) => kept.unit === outermost.unit) && !picked.some((kept) => kept.unit === outermost.unit)) result.push({ unit: outermost.unit, score: entry.score });
  }
  return result;
}
