/**
 * Reads whether a goal asks for an action to be carried out, from its grammatical mood rather than
 * from risky words (issue 10). A goal requests an action when a clause of a non-question sentence
 * opens with an action verb that has an object ("delete the orders table") or its particle ("roll
 * it back"); when it asks someone to act ("can you restart …"); when it states an intention to act
 * ("I need to drop …", "let's redeploy …"); or when it asks for a go/no-go on acting ("should we
 * roll back …", "is it safe to delete …"), which is read here and answered, not gated (the intent
 * analyzer's classifyRisk: nothing is done by answering it). A wh-question
 * or a yes/no question about facts ("how many replicas run in production?", "what has to be done
 * after the key is rotated?") asks for information, however risky its words sound.
 * One linear pass; no tagger, so the rules stay explainable and the analyzer stays microseconds.
 */
import { DETERMINERS, actionStem, prefixedAction, skipFillers } from './action-words';
import { asksForInformation, readAsPartOfQuestion } from './asked-clauses';
import { commandLineAction } from './command-line-request';
import type { GoalToken } from './goal-tokens';
import {
  ACTION_VERBS, ADDRESSEES, AUX_OPENERS, CLEARANCE_WORDS, CLEARED_WORDS, DECISION_MODALS, ELLIPTICAL_QUESTION_OPENERS, INTENTION_WORDS, INTERJECTIONS, LIGHT_VERBS, MODIFIED_NOUNS, NOT_AN_OBJECT, OBJECT_PRONOUNS,
  PHRASAL_ACTIONS, REQUEST_MODALS, RISK_TARGETS, RISK_TOPICS, SAFETY_WORDS, SPEAKERS, STATEMENT_MARKERS, WH_OPENERS,
} from './risk-lexicon';

/** How the action was asked for. */
export type RequestForm = 'imperative' | 'request' | 'decision' | 'intention';

export interface RequestedAction {
  readonly form: RequestForm;
  /** The phrasing up to and including the verb: "delete", "can you restart", "should we roll back". */
  readonly cue: string;
  /** The verb and up to three words of what it is done to: "delete the orders table". */
  readonly action: string;
}

export interface ActionReading {
  readonly actions: readonly RequestedAction[];
  /** Stake-raising words anywhere in the goal ("production", "payment"); they matter only with an action. */
  readonly targets: readonly string[];
  /** The opener of the first question sentence ("what", "does"). */
  readonly questionOpener?: string;
  /** Risky-sounding words that were read as the topic, not as a request ("payment", "rotated"). */
  readonly topicWords: readonly string[];
  /** Intentions stated as the purpose of a wh-question that follows them ("I need to rebuild X. What's the command?"). */
  readonly purposes?: readonly RequestedAction[];
}

/** Objects stop at these: the rest of the clause is where or when, not what. */
const OBJECT_STOPS = new Set(['in', 'on', 'at', 'of', 'for', 'after', 'before', 'during', 'since', 'from', 'with', 'without', 'by', 'about', 'into', 'to', 'and', 'or', 'but', 'then', 'against']);
const MAX_OBJECT_WORDS = 3;
/** Verbs whose destination may come first ("deploy to production"); for others "to" after the word makes it a noun ("close to 500 errors"). */
const MOVE_VERBS = new Set(['deploy', 'redeploy', 'migrate', 'push', 'promote', 'release', 'ship', 'transfer', 'move', 'scale', 'upgrade', 'downgrade', 'revert', 'rollback', 'failover', 'rollout']);
/** After a verb-shaped word and one more, a statement's verb: "Release 2.14 was deployed", "Rollback did not fix it", "Restart helped for an hour". */
const SUBJECT_MARKERS = new Set(['is', 'are', 'was', 'were', 'has', 'have', 'had', 'got', 'caused', 'failed', 'did', 'does', 'do', "didn't", "doesn't", 'helped', 'fixed', 'completed', 'started', 'worked', 'took']);
const MAX_ACTIONS = 8;
/** Token positions are numbered sentence by sentence; a longer sentence's tail shares its last number. */
const MAX_SENTENCE_TOKENS = 10_000;
/** Words that put an intention on a schedule. */
const HABIT_WORDS = new Set(['always', 'daily', 'nightly', 'weekly', 'monthly', 'hourly', 'routinely', 'regularly']);
/** After "every": a recurring day or time, not a set of things. */
const RECURRING = new Set(['day', 'night', 'morning', 'evening', 'week', 'weekend', 'month', 'hour', 'time', 'deploy', 'release', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday', 'few', 'other']);

/** The action starting at `index` when the word there is used as a verb; undefined when it is a noun or a subject. */
function actionAt(sentence: readonly GoalToken[], index: number, gerund = false): { verb: string; action: string } | undefined {
  const token = sentence[index];
  if (!token) return undefined;
  // "Would you mind restarting …": the gerund stands for the verb.
  const lower = gerund && token.lower.endsWith('ing') ? (actionStem(token.lower) ?? token.lower) : token.lower;
  const next = sentence[index + 1]?.lower ?? '';
  // "Go ahead with the rollback": "go ahead" is a filler, so "with" opens the clause.
  const goAheadWith = lower === 'with' && sentence[index - 1]?.lower === 'ahead' && sentence[index - 2]?.lower === 'go';
  if ((LIGHT_VERBS.has(lower) || goAheadWith) && !token.closesSpan) return namedAction(sentence, index);
  const particles = PHRASAL_ACTIONS.get(lower);
  let verb = lower;
  let objectStart: number;
  // "Restart." alone, as a sentence of its own: a command with its object left to the conversation.
  if (next === '' && sentence.length === 1 && token.closesSpan && !token.endsQuestion && ACTION_VERBS.has(lower)) return { verb: lower, action: lower };
  // "Clear up why the sink stopped", "check how the offsets moved": what follows is a question, not an object.
  const afterParticle = particles?.has(next) || LOOSE_PARTICLES.has(next) ? (sentence[index + 2]?.lower ?? '') : next;
  if (EMBEDDED_QUESTION.has(afterParticle)) return undefined;
  const separated = particles && !particles.has(next) ? separatedParticle(sentence, index, particles) : -1;
  if (separated > 0) {
    // "Take kafka-2 offline", "shut the old broker down": the particle after the object.
    const words = [lower, ...sentence.slice(index + 1, separated).map((word) => word.lower)];
    return { verb: `${lower} ${sentence[separated].lower}`, action: [...words, sentence[separated].lower].join(' ') };
  }
  if (particles?.has(next) && !token.closesSpan) {
    // "Fail over procedure", "roll back steps": the phrasal verb names the noun after it.
    if (MODIFIED_NOUNS.has(sentence[index + 2]?.lower ?? '')) return undefined;
    // "Scale up to 10 replicas didn't help": the phrasal verb heads the subject of a statement.
    if (clauseAfter(sentence, index + 2).some((later) => SUBJECT_MARKERS.has(later.lower) || later.lower === 'not')) return undefined;
    verb = `${lower} ${next}`;
    objectStart = index + 2;
  } else if (particles && OBJECT_PRONOUNS.has(next) && particles.has(sentence[index + 2]?.lower ?? '')) {
    verb = `${lower} ${sentence[index + 2].lower}`;
    objectStart = index + 3;
  } else {
    if (!(ACTION_VERBS.has(lower) || prefixedAction(lower)) || token.closesSpan || next === '') return undefined;
    // "Deploy to production" asks; "deploy to production failed" reports.
    if (next === 'to' ? !MOVE_VERBS.has(lower) || sentence.slice(index + 2).some((later) => STATEMENT_MARKERS.has(later.lower)) : NOT_AN_OBJECT.has(next)) return undefined;
    objectStart = index + 1;
    // "Release 2.14 was deployed": the verb-shaped word is the subject of a statement. After a
    // determiner the participle describes the object: "restart the failed pods", "clear the failed tasks".
    if (!DETERMINERS.has(next) && [sentence[index + 2], sentence[index + 3]].some((later) => later !== undefined && SUBJECT_MARKERS.has(later.lower))) return undefined;
  }
  const words = sentence.slice(index, objectStart).map((word) => word.lower);
  for (let at = objectStart; at < sentence.length && at < objectStart + MAX_OBJECT_WORDS; at++) {
    if (sentence[at - 1].closesSpan || OBJECT_STOPS.has(sentence[at].lower)) break;
    words.push(sentence[at].lower);
  }
  // "Drop table vs truncate: which is safer?" compares two actions; it asks which, it does neither.
  if (words.some((word) => word === 'vs' || word === 'versus')) return undefined;
  return { verb, action: words.join(' ') };
}

/** Words that open an embedded question: after a verb they say what is asked, not what is acted on. */
const EMBEDDED_QUESTION = new Set(['why', 'how', 'whether']);
/** Particles any verb may take before an embedded question ("clear up why", "look into how", "figure out whether"). */
const LOOSE_PARTICLES = new Set(['up', 'out', 'into']);
/** Words between a phrasal verb and its particle: "take kafka-2 offline", "shut the old broker down". */
const MAX_SEPARATED_OBJECT_WORDS = 3;

/** Where the verb's particle stands after a short object inside the clause, or -1. */
function separatedParticle(sentence: readonly GoalToken[], index: number, particles: ReadonlySet<string>): number {
  for (let at = index + 2; at <= index + 1 + MAX_SEPARATED_OBJECT_WORDS && at < sentence.length; at++) {
    if (sentence[at - 1].closesSpan || OBJECT_STOPS.has(sentence[at - 1].lower)) return -1;
    if (particles.has(sentence[at].lower) && !OBJECT_PRONOUNS.has(sentence[index + 1].lower)) return at;
  }
  return -1;
}

/** The words from `index` to the end of their clause (punctuation, "and", "then"). */
function clauseAfter(sentence: readonly GoalToken[], index: number): readonly GoalToken[] {
  let end = index;
  while (end < sentence.length && sentence[end].lower !== 'and' && sentence[end].lower !== 'then' && !sentence[end - 1]?.closesSpan) end++;
  return sentence.slice(index, end);
}

/**
 * "We have to restart the sink every Monday", "I have to reset the offsets every time it restarts":
 * an intention held on a schedule reports a chore, it does not ask for one now ("every broker" is
 * what is acted on, so only "every" before a day, a time or a unit of time counts).
 */
function habitual(clause: readonly GoalToken[]): boolean {
  return clause.some((token, at) => HABIT_WORDS.has(token.lower) || (token.lower === 'every' && RECURRING.has(clause[at + 1]?.lower ?? '')));
}

/** Words after a light verb searched for its action noun: "proceed with the ledger_pg 16 upgrade". */
const NAMED_ACTION_WINDOW = 5;

/** A light verb's action is the action noun among the next few words ("perform a rolling restart" → restart). */
function namedAction(sentence: readonly GoalToken[], index: number): { verb: string; action: string } | undefined {
  const words = [sentence[index].lower];
  for (let at = index + 1; at < sentence.length && at <= index + NAMED_ACTION_WINDOW; at++) {
    const word = sentence[at].lower;
    words.push(word);
    if (actionStem(word) && !MODIFIED_NOUNS.has(sentence[at + 1]?.lower ?? '')) return { verb: `${sentence[index].lower} ${word}`, action: words.join(' ') };
    if (sentence[at].closesSpan) return undefined;
  }
  return undefined;
}

/** Verbs that have an action done by someone else: "get the sink restarted", "have kafka-3 shut down". */
const CAUSATIVES = new Set(['get', 'have']);
/** Words of an intention that may take what is wanted done directly: "I need the eta-api pods restarted". */
const WANTING = new Set(['need', 'needs', 'want', 'wants', 'like']);
const MAX_CAUSED_OBJECT_WORDS = 4;

/**
 * "Can we get s3-sink-shipment-events restarted?", "I need the eta-api pods restarted": what is to be
 * done stands after its object as a participle. At least one word must come between ("should we
 * have restarted it earlier?" looks back at what was done), and only after a causative verb or an
 * intention's "need"/"want": "the sink restarted at 08:14" states what happened.
 */
function causedAction(sentence: readonly GoalToken[], at: number, form: RequestForm): { verb: string; action: string } | undefined {
  const causative = CAUSATIVES.has(sentence[at]?.lower ?? '');
  if (!causative && !(form === 'intention' && WANTING.has(sentence[at - 1]?.lower ?? ''))) return undefined;
  const objectStart = causative ? at + 1 : at;
  for (let end = objectStart + 1; end < sentence.length && end <= objectStart + MAX_CAUSED_OBJECT_WORDS; end++) {
    if (sentence[end - 1].closesSpan || OBJECT_STOPS.has(sentence[end - 1].lower)) return undefined;
    const participle = sentence[end].lower;
    if (participle.endsWith('ed') && actionStem(participle)) {
      const words = sentence.slice(objectStart, end).map((token) => token.lower);
      return { verb: participle, action: [...words, participle].join(' ') };
    }
  }
  return undefined;
}

/** Pronouns that stand for an action named earlier in the conversation ("do it", "do that"). */
const ANAPHORS = new Set(['it', 'this', 'that']);

/**
 * "Do it now.", "Please just do that.": a command whose action was named before this goal, returned
 * as its pronoun. "Do" opens a question too ("Do it and the cache share memory?"), so only when
 * nothing but fillers surrounds "do" and the pronoun and the sentence is not asked. What is to be
 * done is unknown here, so it is gated like any named action.
 */
function anaphoricCommand(sentence: readonly GoalToken[], start: number): string | undefined {
  const verbAt = skipFillers(sentence, start);
  const pronoun = sentence[verbAt + 1]?.lower ?? '';
  if (sentence[verbAt]?.lower !== 'do' || !ANAPHORS.has(pronoun) || sentence[sentence.length - 1].endsQuestion) return undefined;
  return skipFillers(sentence, verbAt + 2) >= sentence.length ? pronoun : undefined;
}

/**
 * "When you get a minute, could you roll back eta-api?": "when" before a subject opens a clause of
 * time, and the sentence is what follows its comma. "When did …", "when is …" ask a question.
 */
function opensTimeClause(sentence: readonly GoalToken[], start: number): boolean {
  if (sentence[start]?.lower !== 'when' || AUX_OPENERS.has(sentence[start + 1]?.lower ?? '')) return false;
  return sentence.slice(start, -1).some((token) => token.closesSpan);
}

/**
 * "Can you restart …", "should we roll back …": a modal asking someone to act (a request) or asking
 * whether we should (a go/no-go), with its cue and where the verb stands; undefined for any other opener.
 */
function modalAsk(sentence: readonly GoalToken[], at: number): { form: RequestForm; cue: string; verbAt: number } | undefined {
  const [modal, subject] = [sentence[at]?.lower ?? '', sentence[at + 1]?.lower ?? ''];
  const form: RequestForm | undefined = REQUEST_MODALS.has(modal) && (subject === 'you' || subject === 'u') ? 'request' : DECISION_MODALS.has(modal) && (subject === 'i' || subject === 'we') ? 'decision' : undefined;
  return form && { form, cue: `${modal} ${subject}`, verbAt: skipFillers(sentence, at + 2) };
}

/** How far a clearance to act the words after "have" may stand: "the green light", "the final go-ahead". */
const MAX_CLEARANCE_WORDS = 4;

/**
 * "Do we have the green light to restart …?", "Do I have the go-ahead to disable …?": a yes/no
 * question asking for clearance to act is a go/no-go. Where the action's verb starts, or -1.
 */
function clearanceAsked(sentence: readonly GoalToken[], start: number): number {
  const [opener, subject, verb] = [0, 1, 2].map((offset) => sentence[start + offset]?.lower ?? '');
  if (!AUX_OPENERS.has(opener) || !(subject === 'i' || subject === 'we') || !(verb === 'have' || verb === 'get')) return -1;
  for (let at = start + 3; at < sentence.length - 1 && at <= start + 2 + MAX_CLEARANCE_WORDS; at++) {
    if (CLEARANCE_WORDS.has(sentence[at].lower) && sentence[at + 1].lower === 'to') return at + 2;
    if (sentence[at].closesSpan) return -1;
  }
  return -1;
}

function sentencesOf(tokens: readonly GoalToken[]): GoalToken[][] {
  const sentences: GoalToken[][] = [];
  for (const token of tokens) {
    if (token.sentenceStart || sentences.length === 0) sentences.push([]);
    sentences[sentences.length - 1].push(token);
  }
  return sentences;
}

export function readActionRequest(tokens: readonly GoalToken[]): ActionReading {
  const actions: RequestedAction[] = [];
  let questionOpener: string | undefined;
  // "Refund card …": the verb is the action, not also what it is done to.
  const verbs = new Set<GoalToken>();
  // Where each action was read, and where the last question for information opens: sentence index
  // and token index, so a question later in the same sentence counts ("I will redeploy it; is …?").
  const positionOf = new Map<RequestedAction, number>();
  const position = (sentence: number, token: number) => sentence * MAX_SENTENCE_TOKENS + Math.min(token, MAX_SENTENCE_TOKENS - 1);
  let currentSentence = 0;
  let lastQuestionAt = -1;
  const push = (form: RequestForm, prefix: string, sentence: readonly GoalToken[], at: number): boolean => {
    const mind = form === 'request' && sentence[at]?.lower === 'mind';
    const verbAt = mind ? at + 1 : at;
    const direct = actionAt(sentence, verbAt, mind);
    const found = direct ?? causedAction(sentence, verbAt, form);
    if (found && actions.length < MAX_ACTIONS) {
      // "Can we get label-sink restarted?" asks for it to be done, not whether to do it.
      const asked: RequestForm = form === 'decision' && direct === undefined ? 'request' : form;
      const action: RequestedAction = { form: asked, cue: prefix ? `${prefix} ${found.verb}` : found.verb, action: found.action };
      actions.push(action);
      positionOf.set(action, position(currentSentence, verbAt));
      verbs.add(sentence[verbAt]);
    }
    return found !== undefined;
  };

  for (const [sentenceIndex, sentence] of sentencesOf(tokens).entries()) {
    currentSentence = sentenceIndex;
    let start = 0;
    const opensAside = (word: string) => INTERJECTIONS.has(word) || ADDRESSEES.has(word) || (word.startsWith('@') && word.length > 1);
    while (start < sentence.length - 1 && opensAside(sentence[start].lower)) start++;
    const [opener, second, third, fourth] = [0, 1, 2, 3].map((offset) => sentence[start + offset]?.lower ?? '');
    const command = commandLineAction(sentence, start);
    if (command) {
      if (actions.length < MAX_ACTIONS) actions.push({ form: 'imperative', cue: command.split(' ')[0], action: command });
      continue;
    }
    const asked = modalAsk(sentence, start);
    if (asked) {
      push(asked.form, asked.cue, sentence, asked.verbAt);
      continue;
    }
    // "Mind restarting …?" is "would you mind" without its modal; "time to roll back …" proposes acting now.
    if (opener === 'mind') {
      push('request', '', sentence, start);
      continue;
    }
    if (opener === 'time' && second === 'to') {
      push('intention', 'time to', sentence, skipFillers(sentence, start + 2));
      continue;
    }
    const cleared = (opener === 'are' && second === 'we') || (opener === 'am' && second === 'i') ? CLEARED_WORDS : undefined;
    if (((opener === 'is' && second === 'it' && SAFETY_WORDS.has(third)) || cleared?.has(third)) && fourth === 'to') {
      push('decision', `${opener} ${second} ${third} to`, sentence, skipFillers(sentence, start + 4));
      continue;
    }
    // "Do a controlled shutdown of kafka-3": before an article "do" names an action; a question puts its subject there.
    if (opener === 'do' && (second === 'a' || second === 'an') && !sentence[sentence.length - 1].endsQuestion) {
      push('imperative', '', sentence, start);
      continue;
    }
    const anaphor = anaphoricCommand(sentence, start);
    if (anaphor) {
      if (actions.length < MAX_ACTIONS) actions.push({ form: 'imperative', cue: 'do', action: `do ${anaphor}` });
      continue;
    }
    const clearance = clearanceAsked(sentence, start);
    if (clearance > 0) {
      push('decision', sentence.slice(start, clearance).map((token) => token.lower).join(' '), sentence, skipFillers(sentence, clearance));
      continue;
    }
    if ((WH_OPENERS.has(opener) && !opensTimeClause(sentence, start)) || AUX_OPENERS.has(opener) || (ELLIPTICAL_QUESTION_OPENERS.has(opener) && sentence[sentence.length - 1].endsQuestion)) {
      questionOpener ??= opener;
      if (asksForInformation(sentence, start)) lastQuestionAt = position(sentenceIndex, start);
      continue;
    }
    // A statement or a command: each clause (after a comma, "and", "then") may open with a verb.
    // Once a question about the system has begun ("…, will Airflow go back"), a verb joined to it by
    // "and" is part of it ("… and run the missed days on its own?"), as in a sentence opening with it (fresh f154).
    let askingSince = false;
    for (let clause = start; clause < sentence.length; ) {
      const head = skipFillers(sentence, clause);
      const word = sentence[head]?.lower ?? '';
      const askedAfterClause = head > start && sentence[head - 1].closesSpan && sentence[sentence.length - 1].endsQuestion;
      if (askingSince && sentence[clause]?.lower === 'and' && !AUX_OPENERS.has(word) && !WH_OPENERS.has(word)) {
        // Part of the question begun before it.
      } else if (askedAfterClause && asksForInformation(sentence, head)) {
        // "I will redeploy eta-api after lunch; is there anything about warm-up?": the question after the statement.
        lastQuestionAt = position(sentenceIndex, head);
        askingSince = true;
      } else if (askedAfterClause && AUX_OPENERS.has(word)) {
        // "Once the fix is merged, do I need to restart the tasks?" is read as "Do I need to …?" is:
        // a request ("…, can you restart …?") or a go/no-go ("…, should we …?") still asks to act.
        const asked = modalAsk(sentence, head);
        if (asked) push(asked.form, asked.cue, sentence, asked.verbAt);
        else questionOpener ??= word;
        askingSince = asked === undefined;
      } else if (SPEAKERS.has(word)) {
        let verbAt = head + 1;
        while (verbAt < sentence.length && INTENTION_WORDS.has(sentence[verbAt].lower)) verbAt++;
        if (verbAt > head + 1 && !habitual(sentence.slice(verbAt))) push('intention', sentence.slice(head, verbAt).map((token) => token.lower).join(' '), sentence, verbAt);
      } else if (word === "let's" || word === 'lets' || (word === 'let' && sentence[head + 1]?.lower === 'us')) {
        const verbAt = skipFillers(sentence, head + (word === 'let' ? 2 : 1));
        push('intention', word === 'let' ? 'let us' : word, sentence, verbAt);
      } else if (!readAsPartOfQuestion(sentence, start, clause, head)) push('imperative', '', sentence, head);
      let next = Math.max(head, clause) + 1;
      while (next < sentence.length && !sentence[next - 1].closesSpan && sentence[next].lower !== 'and' && sentence[next].lower !== 'then') next++;
      clause = next;
    }
  }

  const targets: string[] = [];
  const topicWords: string[] = [];
  for (const token of tokens) {
    if (RISK_TARGETS.has(token.lower) && !verbs.has(token) && !targets.includes(token.lower)) targets.push(token.lower);
    if ((RISK_TOPICS.has(token.lower) || actionStem(token.lower)) && !topicWords.includes(token.lower) && topicWords.length < 8) topicWords.push(token.lower);
  }
  // "I need to rebuild fct_deliveries from scratch. What's the command?", "We plan to delete the old
  // topic. Does anything still read it?": the intention is why the asker asks; the goal asks for
  // information, as "How do I rebuild …?" does (freight dev d54). A request, a go/no-go ("… Is that
  // safe?") or a command anywhere still asks to act.
  const purposeOnly = actions.length > 0 && actions.every((action) => action.form === 'intention' && (positionOf.get(action) ?? lastQuestionAt) < lastQuestionAt);
  if (purposeOnly) return { actions: [], targets, questionOpener, topicWords, purposes: actions };
  return { actions, targets, ...(questionOpener ? { questionOpener } : {}), topicWords };
}
