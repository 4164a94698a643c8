import type { ScoredUnit } from './extractive-quoted-subjects';
import { jaccard } from './extractive-term-statistics';
import type { Unit } from './extractive-units';

/**
 * "After the first try of dbt_build failed, at what time did that try end?": a job logs the same record
 * for each try ("Marking task as UP_FOR_RETRY …"), and the reader quoted the later try's, which shares as
 * many of the question's words (freight fresh f275). Asked for the first, each quoted log record brings
 * the earliest record of its kind logged that day by the same source: the same words but for the numbers.
 */
const ASKS_FIRST = /\bfirst\s+(?:try|attempt|run|retry|failure|error|time)\b/i;
/** Two records of one kind: the same template, other ids and times. */
const SAME_KIND_JACCARD = 0.7;
/** A log line's leading stamp: its day and its time, sortable as text. */
const STAMP = /^\s*\[?(\d{4}-\d{2}-\d{2})[t ](\d{2}:\d{2}:\d{2}(?:[.,]\d+)?)/i;

export const asksForFirstRecord = (question: string): boolean => ASKS_FIRST.test(question);

/**
 * The picked units, each quoted log record followed by the first record of its kind that day, when it is an
 * earlier one: right after it, since an answer too long for the model's output budget loses its last lines.
 */
export function withFirstRecords(picked: readonly ScoredUnit[], units: readonly Unit[]): readonly ScoredUnit[] {
  const stamped = units.flatMap((unit) => {
    const stamp = STAMP.exec(unit.text);
    return stamp ? [{ unit, day: stamp[1], time: stamp[2] }] : [];
  });
  const result: ScoredUnit[] = [];
  for (const entry of picked) {
    result.push(entry);
    const record = stamped.find((candidate) => candidate.unit === entry.unit);
    if (!record) continue;
    const earliest = stamped
      .filter((other) => other.unit.source === record.unit.source && other.day === record.day && other.time < record.time && jaccard(other.unit.shape, record.unit.shape) >= SAME_KIND_JACCARD)
      .sort((left, right) => (left.time < right.time ? -1 : 1))[0];
    if (earliest && !result.some((kept) => kept.unit === earliest.unit) && !picked.some((kept) => kept.unit === earliest.unit)) result.push({ unit: earliest.unit, score: entry.score });
  }
  return result;
}
