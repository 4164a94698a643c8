/**
 * Clause heads that look like commands but belong to what a goal asks about (issue 10, risk reading):
 * quoted material, a verb joined by "and" inside an asked clause or after a statement, a verb-shaped
 * word naming a thing in a terse question, and what follows the colon of a request for information.
 * Found by a probe of 273 information questions about two corpora nobody tuned on (56 were gated).
 */
import { DETERMINERS, actionStem, skipFillers } from './action-words';
import type { GoalToken } from './goal-tokens';
import { GOAL_VERBS } from './intent-lexicon';
import { ACTION_VERBS, AUX_OPENERS, ELLIPTICAL_QUESTION_OPENERS, FILLERS, INTERJECTIONS, OBJECT_PRONOUNS, PHRASAL_ACTIONS, SAFETY_WORDS, SPEAKERS, STATEMENT_MARKERS, WH_OPENERS } from './risk-lexicon';

/** Words opening a conditional clause, whose coordinated verbs stay inside it. */
const CONDITIONALS: ReadonlySet<string> = new Set(['if', 'when', 'whenever', 'once']);

/** Where the clause ending before `andAt` starts: after punctuation, "and" or "then". */
function clauseStartBefore(sentence: readonly GoalToken[], andAt: number): number {
  let start = andAt - 1;
  while (start > 0 && !sentence[start - 1].closesSpan && sentence[start].lower !== 'and' && sentence[start].lower !== 'then') start--;
  return start;
}

/**
 * "Show the steps to fail over feature-redis and restore it afterwards", "explain what happens if we
 * stop the connector and reset the offsets": inside a request for information, a verb joined by
 * "and" to an infinitive or to a conditional clause is part of what is asked about. Only a
 * conditional ("if", "when"): "explain why it failed and roll it back" asks for both.
 */
function continuesAskedClause(sentence: readonly GoalToken[], andAt: number): boolean {
  if (andAt < 1) return false;
  const opener = skipFillers(sentence, clauseStartBefore(sentence, andAt));
  if (opener >= andAt || !GOAL_VERBS.has(sentence[opener].lower)) return false;
  if (continuesAskedStatement(sentence, opener, andAt)) return true;
  for (let at = opener + 1; at < andAt; at++) {
    const word = sentence[at].lower;
    if (CONDITIONALS.has(word)) return true;
    const verb = sentence[at + 1]?.lower ?? '';
    if (word === 'to' && at + 1 < andAt && (actionStem(verb) !== undefined || PHRASAL_ACTIONS.has(verb))) return true;
  }
  return false;
}

/** Words after "explain", "tell me" … that open a clause stating what happened ("explain why it failed"). */
const ASKED_STATEMENT_OPENERS: ReadonlySet<string> = new Set(['why', 'how', 'what', 'when', 'whether']);
/** Verbs whose past form is the present form: after "and" in a past statement they are past too. */
const SAME_FORM_PAST: ReadonlySet<string> = new Set(['reset', 'set', 'put', 'cut', 'shut', 'quit', 'hit', 'split', 'spread', 'upset', 'broadcast', 'cast', 'shed']);

/**
 * "Explain why Kafka deleted the segments and reset the consumer": the asked clause (why, how, what,
 * when) states what happened, and a verb after "and" that is a past form ("reset", "restarted")
 * continues that statement. "Explain why it failed and roll it back" still asks for the roll back.
 */
function continuesAskedStatement(sentence: readonly GoalToken[], opener: number, andAt: number): boolean {
  if (!ASKED_STATEMENT_OPENERS.has(sentence[opener + 1]?.lower ?? '')) return false;
  const past = (word: string) => STATEMENT_MARKERS.has(word) || (word.endsWith('ed') && actionStem(word) !== undefined);
  if (!sentence.slice(opener + 2, andAt).some((token) => past(token.lower))) return false;
  const verb = sentence[andAt + 1]?.lower ?? '';
  return past(verb) || SAME_FORM_PAST.has(verb);
}

/**
 * "Restart order for the connector instances?", "Release date of 5.2?", "Upgrade to dbt 1.8.2: any
 * model changes?": a question that opens with a verb-shaped word and no object after it (no
 * determiner or pronoun) names a thing; "Restart the sink?" and "Roll it back?" still ask to act.
 */
function namesAThing(sentence: readonly GoalToken[], head: number): boolean {
  const next = sentence[head + 1]?.lower ?? '';
  // "Restart eta-api — is that safe?": the verb phrase labels what the question after it asks; that question decides.
  if (questionAfterColon(sentence, head) !== undefined) return false;
  return sentence[sentence.length - 1].endsQuestion && !DETERMINERS.has(next) && !OBJECT_PRONOUNS.has(next) && !endsWithTag(sentence, head);
}

/** Words that, alone after a comma, turn a command into a tag question ("…, ok?", "…, please?", "…, right now?"). */
const TAG_WORDS: ReadonlySet<string> = new Set([...FILLERS, ...INTERJECTIONS, 'right', 'yes', 'yeah', 'alright']);

/**
 * "Restart eta-api in production, will you?", "…, ok?", "…, what are you waiting for?": the question
 * mark belongs to a tag after the comma — a yes/no question to the one addressed, a question put to
 * "you", or only fillers — so the clause before it is a command, not a terse question naming a thing.
 */
function endsWithTag(sentence: readonly GoalToken[], head: number): boolean {
  let comma = head;
  while (comma < sentence.length - 1 && !(sentence[comma].closesSpan && !sentence[comma].colonAfter)) comma++;
  return isTag(sentence.slice(comma + 1));
}

/** Only fillers, or a question put to the one addressed ("will you?", "what are you waiting for?"). */
function isTag(tail: readonly GoalToken[]): boolean {
  if (tail.length === 0) return false;
  if (tail.every((token) => TAG_WORDS.has(token.lower))) return true;
  const [opener, subject] = [tail[0].lower, tail[1]?.lower ?? ''];
  const addressed = (word: string) => word === 'you' || word === 'u';
  if (AUX_OPENERS.has(opener)) return addressed(subject);
  return WH_OPENERS.has(opener) && AUX_OPENERS.has(subject) && addressed(tail[2]?.lower ?? '');
}

/**
 * A clause head that looks like a command but is part of what is asked about: quoted material (a
 * commit subject, a runbook line); a verb joined by "and" inside an asked clause or a statement; a
 * verb-shaped word naming a thing in a terse question; what follows the colon of a request for
 * information ("Explain this command: kubectl delete pod …").
 */
export function readAsPartOfQuestion(sentence: readonly GoalToken[], start: number, clause: number, head: number): boolean {
  if (sentence[head]?.quoted) return true;
  if (sentence[clause]?.lower === 'and' && (continuesAskedClause(sentence, clause) || continuesStatement(sentence, clause))) return true;
  if (head === start && namesAThing(sentence, head)) return true;
  if (labelsQuestionAfterColon(sentence, head)) return true;
  return head > start && afterColonOfRequestForInformation(sentence, start, head);
}

/** "Kafka deleted the segments and reset the consumer": after a subject and a past verb, "and reset" shares both. */
function continuesStatement(sentence: readonly GoalToken[], andAt: number): boolean {
  if (andAt < 2) return false;
  const start = clauseStartBefore(sentence, andAt);
  const opener = sentence[start]?.lower ?? '';
  if (ACTION_VERBS.has(opener) || PHRASAL_ACTIONS.has(opener) || GOAL_VERBS.has(opener) || SPEAKERS.has(opener) || FILLERS.has(opener)) return false;
  return sentence.slice(start + 1, andAt).some((token) => STATEMENT_MARKERS.has(token.lower) || (token.lower.endsWith('ed') && actionStem(token.lower) !== undefined));
}

/** The clause at `head` follows a colon in a sentence that asks to be told ("Explain this:", "Meaning of:"). */
function afterColonOfRequestForInformation(sentence: readonly GoalToken[], start: number, head: number): boolean {
  const opener = sentence[skipFillers(sentence, start)]?.lower ?? '';
  if (!GOAL_VERBS.has(opener) && opener !== 'meaning') return false;
  return sentence.slice(start, head).some((token) => token.colonAfter);
}

/** Subjects of a yes/no question that make it a request or a go/no-go ("can you …", "should we …"). */
const ACTING_SUBJECTS: ReadonlySet<string> = new Set(['you', 'u', ...SPEAKERS]);
/** Words that make a yes/no question a go/no-go on acting ("is that safe?", "is anything against it?"). */
const GO_AHEAD_WORDS: ReadonlySet<string> = new Set([...SAFETY_WORDS, 'risky', 'risk', 'wise', 'advisable', 'allowed', 'allow', 'allows', 'permitted', 'go', 'proceed', 'against', 'objection', 'objections']);

/**
 * Whether the words from `at` ask for information: a wh-question ("what else must be updated?"),
 * or a yes/no question about the system ("does anything still read it?"). A yes/no question asked
 * of someone or about what we should do ("can you …", "should we …") or whether acting is safe
 * ("is that safe?") is a request or a go/no-go, not information.
 */
export function asksForInformation(sentence: readonly GoalToken[], at: number): boolean {
  const opener = sentence[at]?.lower ?? '';
  if (WH_OPENERS.has(opener)) return true;
  if (ELLIPTICAL_QUESTION_OPENERS.has(opener)) return sentence[sentence.length - 1].endsQuestion && !sentence.slice(at + 1).some((token) => GO_AHEAD_WORDS.has(token.lower));
  if (!AUX_OPENERS.has(opener) || ACTING_SUBJECTS.has(sentence[at + 1]?.lower ?? '')) return false;
  return !sentence.slice(at + 1).some((token) => GO_AHEAD_WORDS.has(token.lower));
}

/**
 * "Rotate the payment provider key: what else must be updated afterwards?", "Restart the sink: how
 * many times did that happen?": a verb phrase before a colon labels the topic of the question after
 * it. "Restart the sink: can you?" still asks someone to act.
 */
function labelsQuestionAfterColon(sentence: readonly GoalToken[], head: number): boolean {
  const at = questionAfterColon(sentence, head);
  return at !== undefined && asksForInformation(sentence, at) && !isTag(sentence.slice(at));
}

/** Where the question after the colon (or dash) closing the clause at `head` starts, in a sentence that asks. */
function questionAfterColon(sentence: readonly GoalToken[], head: number): number | undefined {
  if (!sentence[sentence.length - 1].endsQuestion) return undefined;
  for (let at = head; at < sentence.length - 1; at++) {
    if (sentence[at].colonAfter) return at + 1;
    if (sentence[at].closesSpan) return undefined;
  }
  return undefined;
}
