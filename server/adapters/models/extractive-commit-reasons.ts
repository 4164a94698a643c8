import type { ScoredUnit } from './extractive-quoted-subjects';
import type { Unit } from './extractive-units';

/**
 * A commit says what changed in its subject and why in its body, and the body opens with the why
 * (git's SubmittingPatches and most commit guides: "explain the problem the change solves"). Asked
 * why something was changed — a decision, not a failure — a quoted commit subject brings its body's
 * first sentence along, whatever its words: "Security review SEC-88: no static AWS keys on the
 * Connect workers." names no failure and ranked 17th, under timeline lines restating the change
 * asked about (freight dev d51). "Why did the run fail?" asks for a cause; a commit quoted there is
 * evidence of it, and its stated purpose is not (dev d01 lost its cause line to one).
 */
const ASKS_WHY_DECIDED = new RegExp(
  String.raw`\bwhy\b[^?]*\b(?:switch(?:ed)?|mov(?:e|ed)|lower(?:ed)?|rais(?:e|ed)|cut|shorten(?:ed)?|increas(?:e|ed)|reduc(?:e|ed)|add(?:ed)?|remov(?:e|ed)|renam(?:e|ed)|replac(?:e|ed)|revert(?:ed)?|` +
    String.raw`disabl(?:e|ed)|enabl(?:e|ed)|introduc(?:e|ed)|migrat(?:e|ed)|chang(?:e|ed)|bump(?:ed)?|pinn?(?:ed)?|upgrad(?:e|ed)|downgrad(?:e|ed)|scal(?:e|ed)|set)\b`,
  'i',
);
/** Per commit in the context, the first prose sentence after its subject: the body's opening, its reason. */
const commitReasonLeads = (units: readonly Unit[]): ReadonlySet<Unit> => {
  const subjects = new Map(units.filter((unit) => unit.role === 'subject').map((unit) => [unit.ref, unit.order]));
  const leads = new Map<number, Unit>();
  for (const unit of units) {
    const subject = subjects.get(unit.ref);
    if (subject !== undefined && unit.role === 'prose' && unit.order > subject && !leads.has(unit.ref)) leads.set(unit.ref, unit);
  }
  return new Set(leads.values());
};

/** "What did the commit that switched it back say about it?": what a commit says is its body. */
const ASKS_WHAT_COMMIT_SAID = /\bwhat (?:did|does) (?:the|that|this|its) commit\b[^?]*\b(?:say|said|state|give|write|note|mention|explain)\b/i;

/** Whether the question asks why something was changed (a decision), not why something failed, or what a commit says of it. */
export const asksWhyDecided = (question: string): boolean => ASKS_WHY_DECIDED.test(question) || ASKS_WHAT_COMMIT_SAID.test(question);

/**
 * Each quoted commit subject's reason lead, when it is not quoted yet (a why-question's answer), after
 * the sentences already picked; it takes the place of the weakest of them when the answer is full.
 */
export function withCommitReasons(picked: readonly ScoredUnit[], scored: readonly ScoredUnit[], units: readonly Unit[], maxSentences: number): ScoredUnit[] {
  const leads = commitReasonLeads(units);
  const explained = new Map<ScoredUnit, ScoredUnit>();
  for (const entry of picked) {
    // Whatever its words: a lead sharing none of the question's is not scored, and comes with its subject's score.
    const lead = entry.unit.role === 'subject' ? [...leads].find((unit) => unit.ref === entry.unit.ref) : undefined;
    const reason = lead && (scored.find((candidate) => candidate.unit === lead) ?? { unit: lead, score: entry.score });
    if (reason && !picked.includes(reason)) explained.set(entry, reason);
  }
  const kept = [...picked];
  const room = Math.max(maxSentences, picked.length) - explained.size;
  // Never the leading sentence: it is the best answer found, and a reason only goes with it.
  for (let index = kept.length - 1; index >= 1 && kept.length > room; index--) if (!explained.has(kept[index])) kept.splice(index, 1);
  return [...kept, ...explained.values()];
}

/**
 * "What was causing that and how was it fixed?": the fix is the change itself, which a commit's
 * subject names ("feast-runner 0.38.1 for eta_features_hourly"), while its body says what it fixes
 * ("Fixes the Snowflake session leak of 0.38.0 …") and scored four times the subject, which fell
 * under the bar (a fresh freight question, f20).
 */
const ASKS_HOW_FIXED = /\b(?:how|what)\b[^?.]*\b(?:fixed|resolved|solved|repaired|mitigated|remediated)\b/i;
export const asksHowFixed = (question: string): boolean => ASKS_HOW_FIXED.test(question);

/**
 * "What time (UTC) was it committed?", "when was the fix merged?": a commit's moment is in its subject
 * line, which carries the commit's date; its body's "reached maxmemory at 06:41 UTC" is another moment,
 * and was quoted instead (a fresh freight question, f141). So is "who put it back, and on which date?" (f390).
 */
const ASKS_WHEN_COMMITTED = /\b(?:when|what time|what day|which day|at what time)\b[^?.]*\b(?:committed|merged|pushed|landed)\b|\b(?:on\s+)?(?:which|what)\s+(?:date|day)\s*\?/i;
export const asksWhenCommitted = (question: string): boolean => ASKS_WHEN_COMMITTED.test(question);

/** Each quoted commit sentence's subject, when it is not quoted yet, after the sentences picked. */
export function withCommitSubjects(picked: readonly ScoredUnit[], scored: readonly ScoredUnit[]): ScoredUnit[] {
  const subjects = picked
    .filter((entry) => entry.unit.role !== 'subject')
    .map((entry) => scored.find((candidate) => candidate.unit.ref === entry.unit.ref && candidate.unit.role === 'subject'))
    .filter((subject): subject is ScoredUnit => subject !== undefined && !picked.some((entry) => entry.unit === subject.unit));
  return subjects.length === 0 ? [...picked] : [...picked, ...new Set(subjects)];
}
