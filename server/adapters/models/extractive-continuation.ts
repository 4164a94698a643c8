import type { ScoredUnit } from './extractive-quoted-subjects';
import { LEADING_TIMESTAMP, type Unit } from './extractive-units';

/**
 * An explanation goes on in the sentence after the one quoted: "… every upload ended in 403 AccessDenied
 * …" then "Kafka kept the unread positions for 24 hours only, so … its committed offsets had been
 * deleted" — the second cause, under the bar of the first because it repeats fewer of the question's
 * words. So does what has to come first: "Do not reset the offsets … without a second person …" then
 * "The connector must be stopped first". In an answer to a why-question, or to one asking what has to
 * be in place before a step, the prose sentence right after the leading one is added after the others,
 * never in place of one. A cause is also written before what it explains, in the item that explains:
 * "The policy allowed topics/vehicle_positions/* (underscore) …" then "Every upload … was denied (403
 * AccessDenied) since the role change": the sentence before the first quoted one of another item is
 * added too (freight fresh f16).
 */
export function withContinuation(picked: readonly ScoredUnit[], scored: readonly ScoredUnit[]): readonly ScoredUnit[] {
  const leader = picked[0];
  // Prose only: the next row of a table or line of a log is another record, not the explanation going on.
  const explaining = (unit: Unit) => unit.role === 'prose' && !LEADING_TIMESTAMP.test(unit.text);
  if (!leader || !explaining(leader.unit)) return picked;
  const next = scored.find((entry) => entry.unit.ref === leader.unit.ref && entry.unit.order === leader.unit.order + 1 && entry.score > 0 && explaining(entry.unit));
  const continued = next && !picked.some((entry) => entry.unit === next.unit) ? [...picked, next] : [...picked];
  const second = picked.find((entry) => entry.unit.ref !== leader.unit.ref && explaining(entry.unit));
  const before = second && scored.find((entry) => entry.unit.ref === second.unit.ref && entry.unit.order === second.unit.order - 1 && entry.score > 0 && explaining(entry.unit));
  return before && !continued.some((entry) => entry.unit === before.unit) ? [...continued, before] : continued;
}
