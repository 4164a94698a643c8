/**
 * Answers a document states as a labelled field: "Author: Tomasz Wojcik", "Incident KDP-INC-031",
 * "Owner: team dispatch". The question asks in other words ("who wrote the postmortem?", "what's the
 * incident number?"), and the line holding the answer shares none of them but the label's noun, so
 * the timeline sentences repeating the question's subject outranked it (freight fresh f26).
 */
import { contentTerms } from '../../runtime/text/text-terms';

/** "Who wrote X?" is answered by X's author: the label a document gives the one who did it. */
const AGENT_LABELS: ReadonlyArray<readonly [RegExp, string]> = [
  [/\bwho (?:wrote|writes|has written|authored|drafted)\b/i, 'author'],
  [/\bwho (?:owns|owned|maintains|maintained)\b/i, 'owner'],
  [/\bwho (?:approved|approves|signed off)\b/i, 'approver'],
  [/\bwho (?:reviewed|reviews)\b/i, 'reviewer'],
];

/**
 * "Should I be worried?", "is that normal?": an assessment, which the sources give in their own words
 * ("ISR shrinks and re-expands as expected", "planned OS patching", "the messages are expected") and
 * never in the question's (freight fresh f49 quoted the shrink lines, not the planned patching).
 */
const ASKS_ASSESSMENT = /\b(?:should|do|must|need) (?:i|we|you) (?:be )?(?:worried|concerned|worry)\b|\bis (?:that|this|it) (?:normal|expected|a problem|bad|dangerous|harmful|a concern)\b|\banything to worry\b/i;
const ASSESSMENT_WORDS = 'expected normal planned harmless benign ignore ignored silenced';

/**
 * "Why did nobody get paged?", "why wasn't anyone alerted?", "why did nobody act on it?": asked why a
 * failure reached no one, or no one acted on its alert, which the sources answer with where its alert
 * goes ("posts to the team's Slack channel only") or who saw it ("acknowledged by the weekend on-call,
 * who read it as a consequence of the patching"; freight fresh f46), not with why the failure happened
 * (freight dev d57 quoted the failing task's traceback).
 */
const ASKS_WHY_NOBODY_TOLD = /\b(?:no ?one|nobody|no-one)\s+(?:[\w-]+\s+){0,2}(?:paged|alerted|notified|told|woken|called|act|acted|react|reacted|respond|responded|notice|noticed)\b|\b(?:wasn't|weren't|was not|were not|didn't|did not)\s+(?:[\w-]+\s+){0,2}(?:paged|alerted|notified|page|alert|notify)\b/i;
const ALERT_ROUTE_WORDS = 'alert alerts posts fires rotation channel slack only';

/** A sentence saying where an alert goes: an alert, a page, a rotation, a channel ("posts to `#dataplat-alerts`"). */
const ALERT_ROUTE = /\b(?:alert(?:s|ed|ing)?|pages?|paged|pager|paging|rotations?|channels?|slack|on-?call)\b|#[a-z][\w-]+/i;
export const statesAlertRoute = (text: string): boolean => ALERT_ROUTE.test(text);

/** Whether the question asks why a failure reached no one: answered by the alert's route, not the failure's cause. */
export function asksWhyNobodyTold(question: string): boolean {
  return ASKS_WHY_NOBODY_TOLD.test(question);
}

/**
 * Spoken operations phrasing and the word runbooks and commits write for it: "when it fills up" is a
 * "full Redis" (freight fresh f114), "do I have to bounce redis?" a "restart" (fresh f104), "what
 * survives on disk?" what a store saves or snapshots (`save 900 1`, fresh f97). Stems do not join
 * them, so the sentence answering shared none of these words with the question.
 */
const SPOKEN_PHRASINGS: ReadonlyArray<readonly [RegExp, string]> = [
  [/\b(?:fill(?:s|ed|ing)?|filling) (?:(?:it|them|the [\w-]+) )?up\b|\bruns? out of (?:memory|space|disk)\b/i, 'full'],
  [/\bbounc(?:e|es|ed|ing)\b/i, 'restart'],
  [/\bsurviv(?:e|es|ed|ing) (?:on disk|a restart|restarts?)\b|\b(?:is|gets|are) (?:kept|left) on disk\b/i, 'save snapshot'],
];

/** The words an answer is given in that the question does not use: the label of "who <did>", an assessment's words, an alert's route, spoken phrasing's written word. */
export function answerWordsAsked(question: string): string[] {
  const labels = AGENT_LABELS.filter(([pattern]) => pattern.test(question)).flatMap(([, label]) => contentTerms(label));
  const assessment = ASKS_ASSESSMENT.test(question) ? contentTerms(ASSESSMENT_WORDS) : [];
  const route = asksWhyNobodyTold(question) ? contentTerms(ALERT_ROUTE_WORDS) : [];
  const written = SPOKEN_PHRASINGS.filter(([pattern]) => pattern.test(question)).flatMap(([, word]) => contentTerms(word));
  return [...labels, ...assessment, ...route, ...written];
}

/** "What's the incident number …", "which ticket id …": the noun the asked id is labelled by. */
const LABELLED_ID = /\b(?:what(?:'s|\s+is|\s+was|\s+are)?|which)\s+(?:the\s+|its\s+|their\s+)?([a-z]{3,})\s+(?:number|id|code|reference|ticket|key)\b/i;

/**
 * A test for a sentence stating the asked id after its label ("Incident KDP-INC-031", "ticket: OPS-88",
 * "change #4411"): the label's noun, then an id with a digit. Undefined when no id is asked for.
 */
export function labelledIdTest(question: string): ((text: string) => boolean) | undefined {
  const label = LABELLED_ID.exec(question)?.[1];
  if (label === undefined) return undefined;
  const stated = new RegExp(String.raw`\b${label}s?\b[\s:#=]*(?:no\.?\s*)?[a-z]*[-_]?[a-z]*[-_]?\d[\w-]*`, 'i');
  return (text) => stated.test(text);
}

/**
 * A label with a number the question names ("SEV-2", "P1", "tier-3") and a line opening with it and a
 * colon ("SEV-2: data lost in the past, or …"): the line defines the label, which a question naming it
 * asks about ("which of our severity criteria puts it there?"), while lines about the incident's
 * system shared more of its words (freight fresh f171).
 */
const NUMBERED_LABEL = /\b[a-z]{1,5}-?\d{1,2}\b/gi;
export function labelDefinitionTest(question: string): (text: string) => boolean {
  const labels = [...new Set((question.match(NUMBERED_LABEL) ?? []).map((label) => label.toLowerCase()))];
  if (labels.length === 0) return () => false;
  return (text) => {
    const opening = /^\s*([a-z]{1,5}-?\d{1,2})\s*:/i.exec(text)?.[1]?.toLowerCase();
    return opening !== undefined && labels.includes(opening);
  };
}

/**
 * "How does eta-api compute the static ETA when features are missing?": asked how a value is worked
 * out, the answer states the arithmetic ("distance / 60 km/h plus the planned stop times"), which the
 * sentences about the features it lacks outscored by the question's other words (freight fresh f240).
 */
const ASKS_COMPUTATION = /\bhow (?:does|do|is|are|was|were|will|would)\b[^?]*\b(?:comput|calculat|deriv|work(?:s|ed)? out|estimat)\w*/i;
const STATES_COMPUTATION = /\s[/*×÷+]\s|\b(?:plus|minus|times|divided by|multiplied by|average of|sum of)\b|\b(?:computed|calculated|derived|worked out|estimated) (?:as|from|by)\b/i;
export const asksComputation = (question: string): boolean => ASKS_COMPUTATION.test(question);
export const statesComputation = (text: string): boolean => STATES_COMPUTATION.test(text);
