import { INTENT_ANALYZER_CONTRACT, type IntentAnalyzerPlugin } from '../contracts/intent-analyzer';
import { sensitiveKinds } from '../policy/sensitive-content-detector';
import type { Identifier, Intent, IntentClass } from '../types';
import { isContraction, possessiveBase, quotedSpans, tokenize, type GoalToken } from './goal-tokens';
import { MAX_TOKEN_CHARS, identifierOf, isWorkloadName, podWorkloadName } from './identifier-extractor';
import { readActionRequest } from './action-request';
import { REQUEST_STOPWORDS } from '../text/english-stopwords';
import { isPhrasalVerb, namesCalendarSpan } from '../text/named-entities';
import { CALENDAR_WORDS, GOAL_VERBS, PHRASE_CUES, RELATIVE_PRONOUNS, WH_WORDS, WORD_CUES } from './intent-lexicon';
import { ACTION_VERBS, PHRASAL_ACTIONS } from './risk-lexicon';

/**
 * Rule-based intent analysis: one linear pass over the tokens. Deterministic and cheap
 * (a few microseconds for a sentence-long goal, see bench/planner-bench.ts), because its
 * output is the plan-cache key and it runs on every request.
 */

const MAX_KEYWORDS = 64;
const MAX_ENTITIES = 32;
const MAX_IDENTIFIERS = 32;
/** Identifier evidence for exact_id; a deployment name alone is a name, not an exact id. */
const IDENTIFIER_WEIGHT = 2;
const ADDITIONAL_IDENTIFIER_WEIGHT = 0.5;
/** On equal evidence the earlier class is primary: retrieval-shaping classes first. */
const PRIORITY: readonly IntentClass[] = ['incident', 'exact_id', 'multi_hop', 'high_risk', 'sensitive', 'conceptual'];
const NOT_COMPARATIVES = new Set(['other', 'rather', 'never', 'whether', 'either', 'neither']);
/** "Which is older, A or B?": a comparison between two entities needs both hops answered. */
const COMPARATIVES = new Set('older,younger,larger,bigger,smaller,taller,shorter,longer,earlier,later,faster,slower,higher,lower,cheaper,newer,heavier,lighter,closer,farther,richer,wider,deeper,oldest,youngest,largest,biggest,first'.split(','));
/** An ellipsis: three dots or the one character. */
const ELIDED = /\.\.\.|…/;

/** Lookup verbs that make a quoted string an exact search ("find \"pool exhausted\" in logs"). */
const LOOKUP_VERBS = new Set(['search', 'find', 'grep', 'lookup', 'look', 'locate']);
const STATUS_TRAILS = new Set(['error', 'errors', 'response', 'responses']);
const KEBAB_OR_SNAKE = /^[A-Za-z][A-Za-z0-9]*(?:[-_][A-Za-z0-9]+)+$/;
const CAPITALISED = /^\p{Lu}[\p{L}\p{N}'’.&-]*\p{Ll}/u;
const WORD = /[\p{L}\p{N}]/u;
const TRAILING_PUNCTUATION = new Set(['.', ',', ';', ':', '!', '?', '…', ' ']);

/** Lower-case, NFKC-folded, whitespace-folded, trailing punctuation stripped: the plan-cache intent key. */
export function normalizeGoal(goal: string): string {
  const folded = goal.normalize('NFKC').toLowerCase().replace(/\s+/g, ' ').trim();
  let end = folded.length;
  while (end > 0 && TRAILING_PUNCTUATION.has(folded[end - 1])) end--;
  return folded.slice(0, end);
}

class Evidence {
  readonly weights = new Map<IntentClass, number>();
  readonly signals: string[] = [];
  add(intent: IntentClass, weight: number, signal: string): void {
    this.weights.set(intent, (this.weights.get(intent) ?? 0) + weight);
    this.note(signal);
  }
  /** A signal with no class weight (e.g. an extracted deployment name). */
  note(signal: string): void {
    if (this.signals.length < 64) this.signals.push(signal);
  }
}

/** Adds `value` to a case-insensitively de-duplicated list. */
function pushUnique(list: string[], seen: Set<string>, value: string, limit: number): void {
  const key = value.toLowerCase();
  if (list.length >= limit || seen.has(key)) return;
  seen.add(key);
  list.push(value);
}

/** Question openers; imperative lookups ("find", "list") are not questions about an entity. */
const INTERROGATIVES = new Set(['who', 'whom', 'whose', 'what', 'which', 'where', 'when', 'why', 'how']);
/**
 * A question about a named entity: the entity is the seed of a walk over the entity–passage
 * graph, which is where HippoRAG's PPR gains over BM25 come from (+11 / +4 Recall@5 on MuSiQue /
 * HotpotQA). Weaker than any structural cue, so a sensitive or incident cue still wins a tie.
 */
const ENTITY_QUESTION_WEIGHT = 0.75;

function isQuestion(goal: string, tokens: readonly GoalToken[]): boolean {
  return goal.trimEnd().endsWith('?') || INTERROGATIVES.has(tokens[0]?.lower ?? '');
}

/**
 * A statement: neither a question nor a request (its first word is no goal verb, lookup or action
 * verb, or wh-word), so a claim to check or a topic ("Incidence of 10/66 dementia is higher than the
 * incidence of DSM-IV dementia."). Its comparison or dependence words state what the claim asserts,
 * which the passage that supports it states too; they are not two facts to look up and chain.
 */
function isStatement(goal: string, tokens: readonly GoalToken[]): boolean {
  const first = tokens.find((token) => !REQUEST_STOPWORDS.has(token.lower))?.lower ?? '';
  return !isQuestion(goal, tokens) && !GOAL_VERBS.has(first) && !LOOKUP_VERBS.has(first) && !WH_WORDS.has(first) && !ACTION_VERBS.has(first) && !PHRASAL_ACTIONS.has(first);
}

/** A plain capitalised word that opens the goal ("Incidence", "Men") is capitalised by position, not because it names something. */
const CAPITALISED_BY_POSITION = /^\p{Lu}\p{Ll}+$/u;

/**
 * A plain word opening a sentence on its own ("According to eta-api, how many …?", "During the
 * patching, which broker …?") is capitalised by its position: read as a name it made the question an
 * entity question (multi-hop, graph retrieval and decomposition) about "According". A name that
 * opens a sentence usually runs on ("Simon Baker starred …") and stays one.
 */
function capitalisedByPosition(tokens: readonly GoalToken[], index: number): boolean {
  return CAPITALISED_BY_POSITION.test(tokens[index].text) && !/^\p{Lu}/u.test(tokens[index + 1]?.text ?? '');
}

/** The named things of a statement: its entities less a plain capitalised opener. */
function statementEntityCount(entities: readonly string[], tokens: readonly GoalToken[]): number {
  const opener = tokens[0]?.text;
  return entities.filter((entity) => !(entity === opener && CAPITALISED_BY_POSITION.test(entity))).length;
}

/**
 * A statement is multi-hop only when it names two things (a claim chaining two entities, as
 * HoVer's claims do). Without that, its multi-hop cues are dropped: SciFact's 23 claims read as
 * multi-hop ("… more effective … compared to …", "… depends on …") went to graph retrieval, fitted
 * on Wikipedia questions, and scored 0.51 nDCG@10 there against bm25's 0.73 (issue 16).
 */
function discountStatementHops(goal: string, tokens: readonly GoalToken[], entities: readonly string[], evidence: Evidence): void {
  if (!evidence.weights.has('multi_hop') || !isStatement(goal, tokens) || statementEntityCount(entities, tokens) >= 2) return;
  evidence.weights.delete('multi_hop');
  evidence.note('multi_hop.statement_without_two_entities');
}

function classifyStructure(tokens: readonly GoalToken[], evidence: Evidence, entityCount: number): void {
  const first = tokens[0]?.lower ?? '';
  let nestedOf = false;
  let relative = false;
  for (let index = 0; index < tokens.length; index++) {
    const lower = tokens[index].lower;
    if (!relative && WH_WORDS.has(first) && RELATIVE_PRONOUNS.has(lower) && index >= 2) {
      const before = tokens[index - 2]?.lower;
      if (before === 'the' || before === 'a' || before === 'an') relative = true;
    }
    if (!nestedOf && lower === 'of' && (tokens[index + 1]?.lower === 'the' || tokens[index + 1]?.lower === 'a')) {
      for (let ahead = index + 2; ahead <= index + 4 && ahead < tokens.length; ahead++) {
        if (tokens[ahead].lower === 'of') nestedOf = true;
      }
    }
    if (lower === 'than' && index > 0 && /[a-z]er$/.test(tokens[index - 1].lower) && !NOT_COMPARATIVES.has(tokens[index - 1].lower)) evidence.add('multi_hop', 1, `multi_hop.comparative(${tokens[index - 1].lower} than)`);
  }
  const comparative = tokens.find((token) => COMPARATIVES.has(token.lower));
  if (comparative && entityCount >= 2 && tokens.some((token) => token.lower === 'or')) {
    evidence.add('multi_hop', 2, `multi_hop.comparison(${comparative.lower})`);
  }
  if (relative) evidence.add('multi_hop', 2, 'multi_hop.relative_clause');
  if (nestedOf) evidence.add('multi_hop', 2, 'multi_hop.nested_of');
  if (entityCount >= 2 && (evidence.weights.get('multi_hop') ?? 0) > 0) evidence.add('multi_hop', 0.5, 'multi_hop.two_entities');
}

/** Each requested action is strong evidence; what it is done to ("production", "payment") adds to it, at most twice. */
const ACTION_WEIGHT = 2;
const TARGET_WEIGHT = 1;
const MAX_TARGETS = 2;

/**
 * high_risk means the goal asks for a risky action to be carried out, not that it mentions one
 * (issue 10: "how many replicas run in production?" was gated). The reading is recorded as
 * signals either way, so EXPLAIN and the approval inbox show why a gate was or was not set.
 */
/**
 * "How do I …?", "How can we …?", "How to …": the goal asks for instructions (the procedural question
 * class, Graesser & Person 1994), which runbooks and docs give. A failure word inside it names the
 * situation the procedure is for ("restart the failed tasks"), not a failure to explain, so the frame
 * drops the incident class: with it, "How do I restart the failed tasks …" was planned as an incident
 * (and, as a secondary class, still scoped to logs and metrics) and never reached the runbook.
 */
const PROCEDURE_WEIGHT = 1.5;
const PROCEDURE_MODALS: ReadonlySet<string> = new Set(['do', 'can', 'could', 'should', 'would']);
const PROCEDURE_SUBJECTS: ReadonlySet<string> = new Set(['i', 'we', 'you', 'one']);

/** "What do I run …?", "what should we do …?", "which command do I use …?": asked for what to do, also instructions. */
const PROCEDURE_VERBS: ReadonlySet<string> = new Set(['do', 'run', 'type', 'execute', 'use', 'call']);

/** The words of a procedural question opening at `at` ("how do i", "how to", "what do i run"), or undefined. */
function procedureAt(words: readonly string[], at: number): string | undefined {
  const [first, second, third, fourth, fifth] = words.slice(at, at + 5);
  if (first === 'how' && second === 'to') return 'how to';
  if (first === 'how' && PROCEDURE_MODALS.has(second ?? '') && PROCEDURE_SUBJECTS.has(third ?? '')) return `how ${second} ${third}`;
  // "Which command do I run", "what exactly should I type": one word may stand between the wh-word and the modal.
  const shift = first === 'which' || (first === 'what' && !PROCEDURE_MODALS.has(second ?? '')) ? 1 : 0;
  const [modal, subject, verb] = shift ? [third, fourth, fifth] : [second, third, fourth];
  if ((first === 'what' || first === 'which') && PROCEDURE_MODALS.has(modal ?? '') && PROCEDURE_SUBJECTS.has(subject ?? '') && PROCEDURE_VERBS.has(verb ?? '')) return words.slice(at, at + 4 + shift).join(' ');
  return undefined;
}

/**
 * The procedural question may follow a sentence or a clause that sets the scene: "Once the cause is
 * fixed, how do I restart only the failed tasks?", "The hourly materialization seems stuck. How can
 * I run it by hand?" (a fresh set of 30 freight questions: four of seven how-tos were planned as
 * incidents and answered from logs and commits). It is read at every sentence and clause start.
 */
function classifyProcedure(tokens: readonly GoalToken[], evidence: Evidence): void {
  const words = tokens.map((token) => token.lower);
  for (let at = 0; at < tokens.length; at++) {
    if (at > 0 && !tokens[at].sentenceStart && !tokens[at - 1].closesSpan) continue;
    const procedure = procedureAt(words, at);
    if (procedure === undefined) continue;
    evidence.add('conceptual', PROCEDURE_WEIGHT, `conceptual.procedure(${procedure})`);
    if (evidence.weights.delete('incident')) evidence.note('incident.situation_of_procedure');
    return;
  }
}

/**
 * A go/no-go question ("can I delete the sink and create it again?", "is it safe to restart kafka-2
 * now?", "should we roll back?") asks for advice: the answer is what the runbooks and the incident
 * say about acting, and nothing is done by answering. Gated, it got no answer until someone approved
 * it, where the people writing questions for this corpus expected the runbook's warning (a fresh
 * freight how-to, f43, and one question of the freight held-out split went to approval though none
 * there asks to act). The reading stays in EXPLAIN; a request, a command or a stated intention still gates.
 */
const ANSWERED_FORMS: ReadonlySet<string> = new Set(['decision']);

function classifyRisk(tokens: readonly GoalToken[], evidence: Evidence): void {
  const reading = readActionRequest(tokens);
  const requested = reading.actions.filter((action) => !ANSWERED_FORMS.has(action.form));
  for (const action of reading.actions) {
    evidence.note(`mood.${action.form}(${action.cue})`);
    if (ANSWERED_FORMS.has(action.form)) evidence.note(`risk.go_no_go_answered(${action.action})`);
    else evidence.add('high_risk', ACTION_WEIGHT, `high_risk.action(${action.action})`);
  }
  if (requested.length > 0) {
    for (const target of reading.targets.slice(0, MAX_TARGETS)) evidence.add('high_risk', TARGET_WEIGHT, `high_risk.target(${target})`);
    return;
  }
  for (const purpose of reading.purposes ?? []) evidence.note(`mood.purpose_of_question(${purpose.cue} ${purpose.action})`);
  if (reading.questionOpener) evidence.note(`mood.question(${reading.questionOpener})`);
  if (reading.topicWords.length > 0) evidence.note(`risk.topic_not_action(${reading.topicWords.join(', ')})`);
}

export class RuleIntentAnalyzer implements IntentAnalyzerPlugin {
  readonly contract = INTENT_ANALYZER_CONTRACT;

  analyze(goal: string): Intent {
    const tokens = tokenize(goal);
    const evidence = new Evidence();
    const identifiers: Identifier[] = [];
    const identifierSeen = new Set<string>();
    const entities: string[] = [];
    const entitySeen = new Set<string>();
    const keywords: string[] = [];
    const keywordSeen = new Set<string>();
    const quoted = quotedSpans(goal);
    // A quote with a part left out ("Fetch position ... is out of range") is the user's shortening: no text
    // holds it as written, and as an entity it scoped every document out of the context (freight fresh f106).
    for (const span of quoted) if (!ELIDED.test(span)) pushUnique(entities, entitySeen, span, MAX_ENTITIES);
    if (quoted.length > 0 && tokens.slice(0, 3).some((token) => LOOKUP_VERBS.has(token.lower))) {
      evidence.add('exact_id', 1.5, `exact_id.quoted_lookup(${quoted[0]})`);
    }

    let exactIdentifiers = 0;
    const addIdentifier = (identifier: Identifier) => {
      const key = `${identifier.kind}:${identifier.value}`;
      if (identifierSeen.has(key) || identifiers.length >= MAX_IDENTIFIERS) return;
      identifierSeen.add(key);
      identifiers.push(identifier);
      if (identifier.kind === 'deployment') {
        pushUnique(entities, entitySeen, identifier.value, MAX_ENTITIES);
        evidence.note(`identifier(deployment:${identifier.value})`);
        return;
      }
      // The first identifier is strong evidence of a lookup; more of them add little,
      // so an incident goal quoting a pod and a commit stays an incident.
      const weight = exactIdentifiers++ === 0 ? IDENTIFIER_WEIGHT : ADDITIONAL_IDENTIFIER_WEIGHT;
      evidence.add('exact_id', weight, `exact_id.identifier(${identifier.kind}:${identifier.value})`);
      if (identifier.kind === 'http_status' && identifier.value >= '500') evidence.add('incident', 1, `incident.status(${identifier.value})`);
    };

    let span: string[] = [];
    let namedSpans = 0;
    const closeSpan = () => {
      if (span.length > 0) {
        namedSpans++;
        pushUnique(entities, entitySeen, span.join(' '), MAX_ENTITIES);
      }
      span = [];
    };

    for (let index = 0; index < tokens.length; index++) {
      const token = tokens[index];
      const lower = token.lower;
      const previous = index > 0 ? tokens[index - 1].lower : '';

      const wordCue = WORD_CUES.get(lower);
      if (wordCue) evidence.add(wordCue.intent, wordCue.weight, `${wordCue.intent}.cue(${lower})`);
      if (index > 0) {
        const phrase = `${previous} ${lower}`;
        const phraseCue = PHRASE_CUES.get(phrase);
        if (phraseCue) evidence.add(phraseCue.intent, phraseCue.weight, `${phraseCue.intent}.cue(${phrase})`);
      }

      // What the token names: "kafka-2's disk" is about kafka-2 (possessiveBase); cues read the word as written.
      const name = possessiveBase(token.text);
      const possessive = name !== token.text;
      const nameLower = possessive ? name.toLowerCase() : lower;
      const identifier = identifierOf(name, nameLower, previous, index > 1 ? tokens[index - 2].lower : '');
      if (identifier) addIdentifier(identifier);
      else if (/^[1-5]\d\d$/.test(lower) && STATUS_TRAILS.has(tokens[index + 1]?.lower ?? '')) addIdentifier({ kind: 'http_status', value: lower });
      if (lower === 'deployment' && index > 0 && previous.includes('-') && isWorkloadName(previous)) addIdentifier({ kind: 'deployment', value: previous });
      if (identifier?.kind === 'pod_name') pushUnique(entities, entitySeen, podWorkloadName(lower) ?? lower, MAX_ENTITIES);

      const isIdentifierToken = identifier !== undefined && identifier.kind !== 'deployment';
      if (!isIdentifierToken && name.length <= 64 && KEBAB_OR_SNAKE.test(name) && !namesCalendarSpan(name) && !isPhrasalVerb(name)) pushUnique(entities, entitySeen, name, MAX_ENTITIES);

      // A quoted message opens as a sentence does: "it logged 'Fetch position … is out of range'" names no "Fetch" (fresh f106).
      const skipAsOpener =
        (token.sentenceStart && (REQUEST_STOPWORDS.has(lower) || GOAL_VERBS.has(lower) || WORD_CUES.has(lower) || ACTION_VERBS.has(lower) || PHRASAL_ACTIONS.has(lower) || capitalisedByPosition(tokens, index))) ||
        (token.opensQuote === true && capitalisedByPosition(tokens, index));
      // A month or weekday is a date, not a name (intent-lexicon.ts CALENDAR_WORDS). A possessive is
      // read as written: "NATO's" names NATO though "NATO" alone has no lower-case letter to pass CAPITALISED.
      if (!isIdentifierToken && !skipAsOpener && !CALENDAR_WORDS.has(lower) && name.length <= MAX_TOKEN_CHARS && CAPITALISED.test(possessive ? token.text : name) && !isContraction(name)) {
        span.push(name);
        // A possessive ends the name it is on: "Alice Johnson's Salary" is not one name.
        if (token.closesSpan || possessive) closeSpan();
      } else if (span.length > 0 && (lower === 'of' || lower === 'de') && CAPITALISED.test(tokens[index + 1]?.text ?? '')) {
        span.push(token.text);
      } else closeSpan();

      if (!REQUEST_STOPWORDS.has(nameLower) && !GOAL_VERBS.has(nameLower) && WORD.test(nameLower) && nameLower.length <= 64 && (nameLower.length > 1 || /\d/.test(nameLower))) {
        pushUnique(keywords, keywordSeen, nameLower, MAX_KEYWORDS);
      }
    }
    closeSpan();
    // Personal data or a secret quoted in the goal (the detector ingest and every non-local call use too).
    for (const kind of sensitiveKinds(goal)) evidence.add('sensitive', 3, `sensitive.pattern(${kind})`);
    classifyStructure(tokens, evidence, entities.length);
    classifyRisk(tokens, evidence);
    classifyProcedure(tokens, evidence);
    if (namedSpans > 0 && isQuestion(goal, tokens)) evidence.add('multi_hop', ENTITY_QUESTION_WEIGHT, `multi_hop.entity_question(${entities[0]})`);
    discountStatementHops(goal, tokens, entities, evidence);

    if (evidence.weights.size === 0) evidence.add('conceptual', 0.5, 'conceptual.default');
    const classes = PRIORITY.filter((intent) => (evidence.weights.get(intent) ?? 0) > 0);
    let primary = classes[0];
    for (const intent of classes) if ((evidence.weights.get(intent) ?? 0) > (evidence.weights.get(primary) ?? 0)) primary = intent;
    const ordered = [primary, ...classes.filter((intent) => intent !== primary)];

    return Object.freeze({
      goal,
      normalized: normalizeGoal(goal),
      primary,
      classes: Object.freeze(ordered),
      entities: Object.freeze(entities),
      identifiers: Object.freeze(identifiers),
      keywords: Object.freeze(keywords),
      signals: Object.freeze(evidence.signals),
    });
  }
}

/** The default analyzer instance (stateless). */
export const ruleIntentAnalyzer: IntentAnalyzerPlugin = new RuleIntentAnalyzer();
