import type { ParsedContextPrompt } from '../../runtime/reasoner/context-prompt';
import { askedInstants, askedMonths } from '../../runtime/text/moment-terms';
import { askedDayRecord, statesOnlyOtherDays } from '../../runtime/text/event-anchor';
import { askedExtreme } from '../../runtime/text/reading-question';
import { withoutIntermediateAnswer } from '../../runtime/reasoner/intermediate-answer';
import { contentTerms, stem, tokenize } from '../../runtime/text/text-terms';
import { CAUSAL_CONNECTIVES, CAUSE_CUES, CHANGE_CATEGORY, SIGNAL_CATEGORIES, SYMPTOM_CUES, givesInstruction, namesCondition } from './extractive-cues';
import { CHANGE_HEADS, askedSettingTest, askedTypeTerms, behaviourSettingKeys, toolSettingKeys, keysAskedSetting, timesDoneSettingKeys, switchedSettingKeys, valueNounKeys, asksWhatChanged, asksMetric, countedTerms, namesAskedPath, namesHeadNoun, namesMetric, statesCount } from './extractive-answer-type';
import { askedMeasure, statesMeasure } from './extractive-measure-type';
import { documentAskedFor } from './extractive-document-question';
import { FRAME_WEIGHT, askedTerms, frameOnlyTerms } from './extractive-frame-clause';
import { askedReadingWindows, statesMomentIn } from './extractive-reading-instant';
import { asksForList, withListSiblings } from './extractive-list-siblings';
import { headingNamedBy } from '../../runtime/text/section-heading';
import { excludedTerms } from '../../runtime/text/set-aside-phrases';
import { anchoredReading, isRecord } from './extractive-event-anchor';
import { asksWhatComesFirst, questionParts } from './extractive-question-parts';
import { creditQuotedSubjects, type ScoredUnit } from './extractive-quoted-subjects';
import { asksHowFixed, asksWhenCommitted, asksWhyDecided, withCommitReasons, withCommitSubjects } from './extractive-commit-reasons';
import { asksHypothetical, asksWhyPreferred, weighsOptions } from './extractive-question-moods';
import { LEADING_TIMESTAMP, type Unit, headerParts, isIdentifier, namesAnItem, unitsOf } from './extractive-units';
import { withContinuation } from './extractive-continuation';
import { askedRecordDetail, asksForTrace, withRecordTraces } from './extractive-record-trace';
import { askedRecordOrdinal, withOrdinalRecords } from './extractive-ordinal-record';
import { MAX_SENTENCES, pickDiverse } from './extractive-diverse-pick';
import { asksCurrentState, withAskedMonthFirst, withPresentStateFirst } from './extractive-current-state';
import { answerWordsAsked, asksComputation, asksWhyNobodyTold, labelDefinitionTest, labelledIdTest, statesAlertRoute, statesComputation } from './extractive-asked-labels';
import { corroboration, documentFrequencies } from './extractive-term-statistics';
import type { SelectedSentence } from './extractive-answer-text';

/**
 * The extractive reader behind the built-in offline model: it never writes a claim of its own,
 * it selects context sentences and cites each one. A sentence's score is Okapi BM25 against the
 * question (Robertson & Zaragoza 2009, k1 = 1.2, b = 0.75, IDF over the sentences of this context),
 * plus the four sentence-extraction methods of Edmundson (1969): cue words (bonus words naming a
 * cause, stigma words naming only a symptom), title words (the sentence restating its item's
 * title), location (a commit's subject line; diff headers and table headers never stand alone),
 * and key words — here taken across sources: a sentence whose rare terms recur in items of other
 * sources is independent evidence agreeing, the cross-document centrality of LexRank (Erkan &
 * Radev 2004) and the strength-based evidence aggregation of Wang et al. (ICLR 2018).
 */
const K1 = 1.2;
const B = 0.75;
/**
 * A block's header (title, source, locator) is scored once and shared by all its sentences, like a
 * BM25F field; a question term the header already matched adds nothing when a sentence repeats it,
 * so "checkout-api listening on :8080" does not outrank the heap error in the checkout-api log.
 */
const HEADER_WEIGHT = 1.0;
const HEADER_MIN_TERMS = 2;
/**
 * The retriever ranked the items before the reader saw them; its order is evidence the reader's
 * word counts do not have (a section about the question's situation vs. one repeating its
 * identifier). As in BERTserini's interpolation of retriever and reader scores (Yang et al. 2019),
 * a sentence's score is scaled by its item's rank: 1 / (1 + RANK_DECAY · log2(rank)), a DCG-style
 * discount that keeps the first items close and the tail within reach of a much better sentence.
 */
const RANK_DECAY = 0.15;

/** Each signal category present adds this share of the question's mean IDF (at most three categories). */
const SIGNAL_SHARE = 0.35;
/** An identifier of the question found verbatim in a sentence counts its IDF once more: rare IDs (a request id) weigh most. */
const IDENTIFIER_SHARE = 1.0;
/** Quantities and codes ("256Mi", "exit code 137") are what answers are made of. */
const QUANTITY_SHARE = 0.15;

/**
 * Edmundson's bonus word weight, in shares of the question's mean IDF. On the demo incident context
 * ("Explain why deployment checkout-api failed") the OOMKilled event and the commit subject stay the
 * two leading lines when any one of these weights is scaled by 0.6…1.5.
 */
const CAUSE_SHARE = 0.8;
/** Stigma: a symptom-only sentence can support an answer but not give a reason, so it keeps this share of its score. */
const SYMPTOM_WEIGHT = 0.6;
/**
 * A why-question asks for a reason (the DESC:reason class of Li & Roth 2002): a sentence without a
 * failure, resource, cause or change word cannot state one, however many question words it repeats.
 */
const CAUSAL_QUESTION = /\b(?:why|caused?|causes|reasons?|root[- ]cause|how come)\b/i;
const NO_SIGNAL_WEIGHT = 0.5;
/**
 * A how-to question asks for an instruction (the procedural class of question taxonomies, e.g.
 * Graesser & Person 1994): a log record says what happened, never what to do, so a timestamped
 * line weighs half in answers to "How do I …?" / "What has to be done …?". "What command do I run to
 * redo that day?" asks the same: read as a statement question, it was answered with the failed run's
 * traceback and never the runbook's `airflow tasks clear` (freight dev d104).
 */
const PROCEDURAL_QUESTION = /\bhow (?:do|can|should|would|could) (?:i|we|you|one)\b|\bhow to\b|\bsteps? (?:to|for)\b|\bwhat (?:has|have|needs?|must|should) to be done\b|\bwhat (?:should|must|do) (?:i|we) do\b|\bwhat(?:'s| is) the (?:\w+ )?way to\b|\b(?:what|which) (?:\w+ )?(?:do|should|must|can) (?:i|we|you) (?:run|type|use|execute|query)\b/i;
const RECORD_WEIGHT = 0.5;
/** Lines stating an asked request id or error code quoted first, at most: one per record asked about, as a rule two. */
const MAX_DETAIL_LINES = 2;
/** A how-to asking to read something off the records themselves. */
const FROM_RECORDS = /\b(?:from|in|out of) (?:its|the|their|[\w-]+'s) (?:own )?(?:logs?|log lines|records|metrics)\b/i;
/** A lead-in with the command or value it introduces (a 'step' piece) is the instruction a how-to question asks for. */
const STEP_SHARE = 0.6;
/** A sentence stating the id a question asks for by its label ("Incident KDP-INC-031") gets this share. */
const LABELLED_ID_SHARE = 1.0;
/**
 * In a why-question the words besides the subject's identifiers ("rollout", "fail", "restarting") name
 * what is to be explained: a sentence repeating them restates the question ("If a rollout fails, …")
 * rather than answering it, so their BM25 weight is halved — bag-of-words overlap is a weak signal
 * for why-QA (Verberne et al., Computational Linguistics 36(2), 2010).
 */
const EXPLANANDUM_WEIGHT = 0.5;
/**
 * A why-question about a named subject ("checkout-api") asks about one incident; a sentence naming no
 * subject, identifier, path or number ("During a failed rollout, roll back first") is general advice,
 * not evidence of it. Numbers and named things are the marks of specific sentences (Louis & Nenkova 2011).
 */
const GENERIC_WEIGHT = 0.5;
/**
 * Each other source whose best sentence agrees raises the score by up to this fraction; at most
 * three sources count (extractive-term-statistics.ts). It multiplies rather than adds, as in question-biased LexRank
 * (Otterbacher, Erkan & Radev 2005): agreement lends weight to a relevant sentence, but cannot make
 * a sentence the question is not about (a pool timeout, when the question asks for the pool size) relevant.
 */
const CORROBORATION_GAIN = 0.5;
/** A sentence restating all of its item's title words gets this share (Edmundson's title method). */
const TITLE_SHARE = 0.6;
/** The commit subject is its author's one-line summary of the change ("git log --oneline"). */
const SUBJECT_SHARE = 0.6;
/** A diff line pair, an unchanged setting or a table row is a detail that supports a claim, rarely the claim itself. */
const DETAIL_WEIGHT = 0.75;
/** "What did commit X change?", "what changed in …": the changed lines are the claim asked for, not a detail. */
/** A markdown heading line ("## Change freeze"). */
const MARKDOWN_HEADING = /^#{1,6}\s/;
/** Numbers of one or two digits. */
const SMALL_NUMBER = /^\d{1,2}$/;
/** A count question ("How many replicas …?") keeps this share of a sentence that binds no number to the counted noun (extractive-answer-type.ts). */
const UNTYPED_WEIGHT = 0.5;
/**
 * A sentence that cannot be of the kind asked keeps this share, lower than UNTYPED_HEAD_WEIGHT's: a
 * measure question's sentence with no number in the measure's unit (freight dev d34: "average speed
 * over 15 and 60 minutes", a feature's name, outranked "distance / 60 km/h" four to one on the
 * question's words), and a "what was changed" question's sentence that is no commit subject or
 * changed line (dev d07: "6 replicas changed nothing" outranked "maxmemory 16gb, noeviction").
 * A head noun is matched by its word, which a sentence may state in other words; these kinds are not.
 */
const WRONG_KIND_WEIGHT = 0.25;
/**
 * "At what time on 9 March was the restart requested?": a sentence dated another day keeps this share.
 * The question's other words ("the failed tasks") are the 6 March failure's too, and its timeline line
 * outranked the 9 March restart record (freight fresh f223).
 */
const OTHER_DAY_WEIGHT = 0.4;
/**
 * "Which team owns …?" keeps this share of a sentence that names no team (neither the sentence nor its
 * item's header holds the question's head noun), when some sentence of the context does: a line
 * about eta-api's logs names the system but cannot say who owns it (extractive-answer-type.ts).
 */
const UNTYPED_HEAD_WEIGHT = 0.6;
const CHANGE_QUESTION = /\b(?:chang(?:e|ed|es)|diff|modif(?:y|ied|ies))\b|\bbefore\s+(?:v\d+|version\s+\d|the\s+(?:upgrade|migration|switch|fix|bump))\b|\b(?:used to|previously|originally)\b/i;

/** "Which two files did the fix change?", "what files does commit X touch": files a change touched. */
const ASKS_CHANGED_FILES = /\b(?:which|what)\s+(?:\w+\s+)?files?\b[^?]*\b(?:chang|touch|modif|edit)/i;

/** How a series summary (metric-series-summary.ts) words each extreme. */
const EXTREME_WORDS = { highest: 'highest peak', lowest: 'lowest' } as const;

/** Scores every context sentence against the question and picks the evidence, best first. */
export function selectEvidence(prompt: ParsedContextPrompt): SelectedSentence[] {
  // What the question names only to set it aside ("besides X and Y, which …") is not what is asked.
  // "How stale did it get?" is answered by a series summary's "highest 32.5 h", in words the question lacks.
  const extreme = askedExtreme(prompt.question);
  // The question as the user asked it, without a bridge name a self-ask step appended (see ownIdentifiers below).
  const ownQuestion = withoutIntermediateAnswer(prompt.question);
  // "Its last 'features missing' warning": "last" picks among the records, it is no word of theirs ("last 5m: requests=…"; fresh f345).
  const recordOrdinal = askedRecordOrdinal(ownQuestion);
  const ordinalTerms = new Set(recordOrdinal ? contentTerms(recordOrdinal.word) : []);
  const queryTerms = [...new Set([...askedTerms(prompt.question), ...(extreme ? contentTerms(EXTREME_WORDS[extreme]) : []), ...answerWordsAsked(prompt.question)])].filter((term) => !ordinalTerms.has(term));
  const querySet = new Set(queryTerms);
  // A commit's list of changed files answers only which files a change touched (extractive-block-parser.ts).
  const units = unitsOf(prompt.blocks).filter((unit) => unit.role !== 'files' || ASKS_CHANGED_FILES.test(prompt.question));
  if (queryTerms.length === 0 || units.length === 0) return [];
  // "Why does the runbook say not to?": only a document's sentences say what it says.
  const documentRefs = documentAskedFor(prompt);
  // Why a document says something is the reason it gives in its own words, not an incident's cause:
  // the failure-signal weighting of why-questions lifted a runbook's command step (two signal words,
  // no word of the question) to five times the sentence giving the reason (freight dev d74).
  // Nor is why nobody was paged: the alert's route answers it, and the failure's traceback does not.
  const causal = CAUSAL_QUESTION.test(prompt.question) && documentRefs === undefined && !asksWhyNobodyTold(prompt.question);
  const frameOnly = frameOnlyTerms(prompt.question);
  const asksForChange = CHANGE_QUESTION.test(prompt.question);
  const procedural = PROCEDURAL_QUESTION.test(prompt.question);
  // "How do I get its p99 per 5 minutes straight from its logs?": the record that carries it is the how (fresh f340).
  const readsOwnRecords = FROM_RECORDS.test(prompt.question);
  const hypothetical = asksHypothetical(prompt.question);
  // Why one option was preferred: a sentence weighing options counts as a cause, and when the context
  // holds one, the others are held to the bar of an untyped answer (extractive-question-moods.ts).
  const prefers = causal && asksWhyPreferred(prompt.question);
  const optionsWeighed = prefers && units.some((unit) => weighsOptions(unit.text));
  // A command step, or a runbook sentence in the imperative ("Do it in three steps: add the new field …").
  const instructs = (unit: Unit) => unit.role === 'step' || (unit.role === 'prose' && givesInstruction(unit.text));
  const counted = countedTerms(prompt.question);
  // A measure question ("what speed", "how long") when some sentence states that measure: the others cannot answer it.
  const measure = askedMeasure(prompt.question);
  const measured = measure !== undefined && units.some((unit) => statesMeasure(unit.text, measure)) ? measure : undefined;
  // "What survives on disk? Is append-only persistence turned on?": the on/off a yes/no part asks for
  // is not owed by a sentence answering the other part (`save 900 1`; freight fresh f97). Other
  // measures bind the whole question: "When it falls back, what speed …?" asks one thing (fresh f37).
  const parts = questionParts(prompt.question) ?? [];
  const unmeasuredPartTerms = measured !== 'switch' ? [] : parts.filter((part) => askedMeasure(part.text) === undefined).map((part) => part.distinctive);
  const answersUnmeasuredPart = (unit: Unit) => unmeasuredPartTerms.some((terms) => [...terms].some((term) => unit.termSet.has(term)));
  const askedType = askedTypeTerms(prompt.question);
  // "Why did nobody get paged?" is answered where the alert goes: a sentence naming no alert, page or channel cannot say (dev d57).
  const routeAsked = asksWhyNobodyTold(prompt.question) && units.some((unit) => statesAlertRoute(unit.text));
  // "How does it compute the static ETA?" is answered by the arithmetic, when a sentence states one.
  const computationAsked = asksComputation(prompt.question) && units.some((unit) => statesComputation(unit.text));
  const statesLabelledId = labelledIdTest(prompt.question);
  const idf = documentFrequencies(units.map((unit) => unit.termSet));
  // A day with its time ("09:00 UTC on 14 April 2026") is a query term in the notation lines state it
  // in ("2026-04-14T09:00:51Z"). The day alone is not: it is the frame of every line of that day's log,
  // so it only reorders near-ties (a WARN line of the day outranked the commit stating the cause).
  const moments = askedInstants(prompt.question);
  // "How full was the disk at noon UTC on 7 March?": when a unit states the asked moment, it is the reading; others cannot be.
  const readingWindows = askedReadingWindows(prompt.question);
  // A reading of the measure asked, when one is asked: "How full was the disk that afternoon?" is not
  // read off the timeline's "Mar 6 16:53 — tasks fail", stamped in the window but stating no share.
  const statesReading = (unit: Unit) => statesMomentIn(unit.moments, readingWindows) && (measured === undefined || statesMeasure(unit.text, measured));
  const readingStated = readingWindows.length > 0 && units.some(statesReading);
  // "How big was the lag around the time the alert fired?": the sentence saying when it fired, and the
  // subject's record stamped nearest that moment, are quoted first; records of other moments are not the
  // reading asked (extractive-event-anchor.ts; fresh f84).
  const anchored = readingWindows.length === 0 ? anchoredReading(prompt.question, units, idf, querySet) : undefined;
  const recordDay = askedDayRecord(prompt.question);
  const momentIdf = documentFrequencies(units.map((unit) => unit.moments));
  const meanIdf = queryTerms.reduce((sum, term) => sum + idf(term), 0) / queryTerms.length;
  const averageLength = units.reduce((sum, unit) => sum + unit.terms.length, 0) / units.length || 1;
  const questionIdentifiers = tokenize(prompt.question).filter(isIdentifier);
  const identifierTerms = new Set(questionIdentifiers.flatMap(contentTerms));
  // The user's own ids weigh once more, and the user's own words in full. A bridge name self-ask
  // appended was read off one sentence of this context: crediting it in full made that sentence
  // outweigh every other item (freight dev d79: "(intermediate answer: Security, SEC-88)" put the
  // SEC-88 line at 2.6 times the log line stating the role assumed, below the bar for a second item),
  // so it weighs as a frame term does, half.
  const ownIdentifiers = tokenize(ownQuestion).filter(isIdentifier);
  const ownTerms = new Set(contentTerms(ownQuestion));
  const definesNamedLabel = labelDefinitionTest(ownQuestion);
  const setAsideExcluded = excludedTerms(ownQuestion);
  const setAsideIds = tokenize(ownQuestion).filter((token) => isIdentifier(token) && contentTerms(token).some((term) => setAsideExcluded.has(term)));
  const namesSetAside = (unit: Unit) => setAsideIds.some((id) => unit.tokens.has(id) || contentTerms(id).every((term) => unit.termSet.has(term)));
  // A document section the question names by its heading ("… inside the Friday change freeze?" → § Change
  // freeze): its first sentence says what it is, in words the heading took (dev d41). Quoted first.
  const namedSections = prompt.blocks.filter((block) => headingNamedBy(ownQuestion, headerParts(block.header).locator)).map((block) => block.ref);
  const sectionOpenings = new Set(namedSections.flatMap((ref) => units.find((unit) => unit.ref === ref && unit.role === 'prose' && !MARKDOWN_HEADING.test(unit.text)) ?? []));
  const opensNamedSection = (unit: Unit) => sectionOpenings.has(unit);
  const bridgeOnly = (term: string) => !ownTerms.has(term);
  const headers = new Map(prompt.blocks.map((block) => {
    const terms = new Set(contentTerms(block.header));
    const matched = queryTerms.filter((term) => terms.has(term));
    const parts = headerParts(block.header);
    const locator = new Set(contentTerms(parts.locator));
    const title = new Set(contentTerms(parts.title).filter((term) => !querySet.has(term) && !locator.has(term)));
    return [block.ref, { terms, title, score: matched.reduce((sum, term) => sum + idf(term) * (frameOnly.has(term) ? FRAME_WEIGHT : 1), 0), distinct: matched.length }] as const;
  }));
  const agreement = corroboration(units, querySet);
  const changeAsked = asksWhatChanged(prompt.question);
  const isChange = (unit: Unit) => unit.role === 'subject' || unit.role === 'change';
  const isTyped = (unit: Unit) =>
    (!changeAsked || isChange(unit)) &&
    (!askedType || [...askedType].some((term) => namesHeadNoun(unit.tokens, unit.termSet, term) || namesAskedPath(unit.text, term) || headers.get(unit.ref)?.terms.has(term) || (CHANGE_HEADS.has(term) && isChange(unit))));
  const typeApplies = (askedType !== undefined || changeAsked) && units.some(isTyped);
  // "What instance type …?" is answered by the setting keyed so ("instance_type = …"), not a sentence about the instances.
  const askedSetting = askedSettingTest(prompt.question, units);
  // Settings keyed as the behaviour or count described, or by the value noun asked for ("what S3 write actions
  // does the policy grant?" → `actions = [...]`, outscored by sentences about the role; fresh f126): quoted first.
  const describedSettingKeys = [...behaviourSettingKeys(prompt.question), ...timesDoneSettingKeys(prompt.question), ...valueNounKeys(prompt.question), ...toolSettingKeys(prompt.question)];
  // "Is append-only persistence turned on?": the line keyed by what it switches, stating on or off, answers it outright.
  const switchKeys = measured === 'switch' ? switchedSettingKeys(prompt.question) : [];
  // Rank within the item's source: one retriever's ordering; the context may interleave each source's leader first.
  const rankOf = new Map<number, number>();
  const perSource = new Map<string, number>();
  for (const block of prompt.blocks) {
    const source = headerParts(block.header).source;
    perSource.set(source, (perSource.get(source) ?? 0) + 1);
    rankOf.set(block.ref, perSource.get(source)!);
  }

  const scored: ScoredUnit[] = [];
  // Settings keyed as the behaviour the question describes, stating a value of the asked kind: the answer itself.
  const askedValues = new Set<Unit>();
  units.forEach((unit, index) => {
    const header = headers.get(unit.ref) ?? { terms: new Set<string>(), title: new Set<string>(), score: 0, distinct: 0 };
    let lexical = 0;
    let matched = false;
    for (const term of queryTerms) {
      const frequency = unit.terms.filter((candidate) => candidate === term).length;
      if (frequency === 0) continue;
      // A day of the month or a small count ("6 to 8 March") is in every other line ("0/6 nodes"): it weighs, but cannot qualify a sentence alone.
      if (!SMALL_NUMBER.test(term)) matched = true;
      if (header.terms.has(term)) continue;
      const weight = (causal && !identifierTerms.has(term) ? EXPLANANDUM_WEIGHT : 1) * (frameOnly.has(term) || bridgeOnly(term) ? FRAME_WEIGHT : 1);
      lexical += (weight * idf(term) * frequency * (K1 + 1)) / (frequency + K1 * (1 - B + (B * unit.terms.length) / averageLength));
    }
    for (const moment of moments) {
      if (!unit.moments.has(moment)) continue;
      matched = true;
      lexical += (momentIdf(moment) * (K1 + 1)) / (1 + K1 * (1 - B + (B * unit.terms.length) / averageLength));
    }
    // A commit subject or a changed line states a change by where it stands, whatever its words.
    const located = unit.role === 'subject' || unit.role === 'change' ? [CHANGE_CATEGORY] : [];
    const categories = new Set([...SIGNAL_CATEGORIES.filter((category) => unit.terms.some((term) => category.has(term))), ...located]).size;
    // A markdown heading names a section, it states nothing ("# Runbook: schema changes on billing-db"
    // restates the question's words and would outrank the section's rules).
    if (MARKDOWN_HEADING.test(unit.text)) return;
    // A sentence qualifies by sharing a question term, or by carrying incident signal inside a block whose header
    // names what the question is about (two or more question terms: "checkout-api container log", not just "log").
    // So does the opening of a section the question names by its heading: "§ Who to ask" opens with "`#data-platform`, or …".
    if (!matched && !opensNamedSection(unit) && (header.distinct < HEADER_MIN_TERMS || categories === 0)) return;
    const identifierWeight = ownIdentifiers.filter((identifier) => unit.tokens.has(identifier)).reduce((sum, identifier) => sum + idf(stem(identifier)), 0);
    const hasQuantity = [...unit.tokens].some((token) => /^\d+(\.\d+)?[a-z]{1,3}$|^\d{3}$/.test(token));
    const weighs = prefers && weighsOptions(unit.text);
    const cause = weighs || unit.terms.some((term) => CAUSE_CUES.has(term) || (causal && (namesCondition(term) || CAUSAL_CONNECTIVES.has(term))));
    const symptom = !cause && unit.terms.some((term) => SYMPTOM_CUES.has(term) && !querySet.has(term));
    let titleShare = 0;
    for (const term of header.title) if (unit.termSet.has(term)) titleShare += 1 / header.title.size;
    let score = lexical + HEADER_WEIGHT * header.score + IDENTIFIER_SHARE * identifierWeight;
    score += meanIdf * (SIGNAL_SHARE * Math.min(categories, 3) + (hasQuantity ? QUANTITY_SHARE : 0));
    score += meanIdf * (TITLE_SHARE * titleShare + (unit.role === 'subject' ? SUBJECT_SHARE : 0) + (cause ? CAUSE_SHARE : 0));
    score *= 1 + CORROBORATION_GAIN * agreement[index];
    if (symptom) score *= SYMPTOM_WEIGHT;
    if (causal && categories === 0) score *= NO_SIGNAL_WEIGHT;
    if (causal && questionIdentifiers.length > 0 && ![...unit.tokens].some((token) => /\d|[_./:]/.test(token) || questionIdentifiers.includes(token))) score *= GENERIC_WEIGHT;
    const reading = readingStated && statesReading(unit);
    const asked = askedSetting?.(unit) ?? false;
    if (!asked && ((unit.role === 'change' && !asksForChange) || unit.role === 'setting' || (unit.role === 'row' && !reading))) score *= DETAIL_WEIGHT;
    if ((readingStated && !reading) || (anchored && isRecord(unit) && !anchored.readings.has(unit))) score *= WRONG_KIND_WEIGHT;
    if ((procedural || hypothetical) && !readsOwnRecords && (LEADING_TIMESTAMP.test(unit.text) || unit.role === 'row')) score *= RECORD_WEIGHT;
    if (recordDay !== undefined && statesOnlyOtherDays(unit.moments, recordDay)) score *= OTHER_DAY_WEIGHT;
    // An instruction explains nothing: "Is feature-redis full or evicting?: redis-cli … INFO memory" is how to look, not why.
    if (causal && unit.role === 'step') score *= NO_SIGNAL_WEIGHT;
    if (documentRefs && !documentRefs.has(unit.ref)) score *= WRONG_KIND_WEIGHT;
    if (procedural && instructs(unit)) score += meanIdf * STEP_SHARE;
    // "Incident KDP-INC-031" answers "what's the incident number?" by its label and id, not by the question's words.
    if (statesLabelledId?.(unit.text)) score += meanIdf * LABELLED_ID_SHARE;
    // "SEV-2: data lost in the past, …" defines a label the question names by its id: what it means is asked, quoted first (fresh f171).
    if (definesNamedLabel(unit.text) || opensNamedSection(unit)) askedValues.add(unit);
    // "How long does it keep its data, and how many partitions?" asks both: a count is not the wrong kind for lacking a duration.
    const answersKind = (counted !== undefined && statesCount(unit.text, counted)) || (measured !== undefined && statesMeasure(unit.text, measured));
    if (counted && !answersKind) score *= UNTYPED_WEIGHT;
    if (measured && !answersKind && !answersUnmeasuredPart(unit)) score *= WRONG_KIND_WEIGHT;
    if ((routeAsked && !statesAlertRoute(unit.text)) || (computationAsked && !statesComputation(unit.text))) score *= WRONG_KIND_WEIGHT;
    if (optionsWeighed && !weighs) score *= UNTYPED_HEAD_WEIGHT;
    // "Besides S3 access, what KMS permissions …?": a sentence naming an id the question sets aside tells the asker
    // what they know; the S3 actions line outranked the KMS one (freight fresh f184).
    if (namesSetAside(unit)) score *= WRONG_KIND_WEIGHT;
    if (typeApplies && !isTyped(unit)) score *= changeAsked ? WRONG_KIND_WEIGHT : UNTYPED_HEAD_WEIGHT;
    if (askedSetting && !asked) score *= UNTYPED_HEAD_WEIGHT;
    if (unit.role === 'setting' && (answersKind || (!counted && !measured)) && keysAskedSetting(unit.text, describedSettingKeys)) askedValues.add(unit);
    if ((unit.role === 'setting' || unit.role === 'change') && answersKind && keysAskedSetting(unit.scored, switchKeys)) askedValues.add(unit);
    // Fragments carry no claim of their own.
    if (unit.terms.length < 3) score *= 0.5;
    // Not for why-questions: the retriever ranks by likeness to the symptom the question describes
    // (back-off events first), which is exactly what the cause and stigma cues above correct.
    if (!causal) score /= 1 + RANK_DECAY * Math.log2(rankOf.get(unit.ref) ?? 1);
    scored.push({ unit, score });
  });
  // "Which counter does eta-api increment …?": the best sentence naming a metric is the answer, whatever else
  // shares the question's words ("materialize-incremental" met "increment"; freight fresh f177).
  if (asksMetric(askedType)) {
    const naming = scored.filter((entry) => namesMetric(entry.unit.tokens)).sort((left, right) => right.score - left.score)[0];
    if (naming) askedValues.add(naming.unit);
  }
  // "What request ids did the denied uploads get back?": the lines stating one are the answer, whatever else shares the question's words.
  const statesDetail = askedRecordDetail(ownQuestion);
  if (statesDetail) for (const entry of scored.filter((candidate) => statesDetail(candidate.unit.text)).sort((left, right) => right.score - left.score).slice(0, MAX_DETAIL_LINES)) askedValues.add(entry.unit);
  if (anchored) {
    const nearest = scored.filter((entry) => anchored.readings.has(entry.unit)).sort((left, right) => right.score - left.score)[0];
    for (const unit of [anchored.event, nearest?.unit]) if (unit) askedValues.add(unit);
  }
  // Items whose header carries an id of the question (a commit SHA, an error code): the question names them.
  const named = new Set(prompt.blocks.filter((block) => questionIdentifiers.some((identifier) => namesAnItem(identifier) && block.header.toLowerCase().includes(identifier))).map((block) => block.ref));
  // A weak sentence of another item still supports the answer when it names an identifier (a key, a
  // path, an id) that a quoted sentence names and the question did not bring: the config line
  // holding the key a runbook sentence tells you to set.
  const questionTokens = new Set(tokenize(prompt.question));
  // So does the setting the question asks for: "How long may eta-api wait on feature-redis …?" was
  // answered by a runbook's sentences while `FEATURE_FETCH_TIMEOUT_MS: "40"`, scored below the bar for a
  // second item, was left out (freight dev d35).
  const supports = (candidate: Unit, quoted: readonly Unit[]) =>
    [...candidate.tokens].some((token) => isIdentifier(token) && !questionTokens.has(token) && quoted.some((picked) => picked.tokens.has(token)));
  // A how-to question asks for an instruction: when a step qualifies, a statement is held to the bar of an
  // untyped answer (freight dev d37: "eta-api would serve static ETAs until the next hourly
  // materialization" outranked "By hand, from the feast-runner pod: feast … materialize-incremental").
  const stepsQualify = procedural && scored.some((entry) => entry.unit.role === 'step');
  const stepTyped = stepsQualify ? scored.map((entry) => (instructs(entry.unit) ? entry : { unit: entry.unit, score: entry.score * UNTYPED_HEAD_WEIGHT })) : scored;
  const typedScored = asksCurrentState(prompt.question) ? withPresentStateFirst(stepTyped) : withAskedMonthFirst(stepTyped, askedMonths(prompt.question));
  const asksWhichChange = changeAsked || (askedType !== undefined && [...askedType].some((term) => CHANGE_HEADS.has(term)));
  const diverse = pickDiverse(asksWhichChange ? creditQuotedSubjects(typedScored) : typedScored, { named, supports, procedural, parts, stampedLinesAreReadings: !causal, askedValues, askedIds: ownIdentifiers, termWeight: idf });
  // A reason, and what has to come first, often go on in the next sentence ("… without a second person. The connector must be stopped first").
  const continued = causal || asksWhatComesFirst(prompt.question) ? withContinuation(diverse, typedScored) : diverse;
  const committed = asksHowFixed(prompt.question) || asksWhenCommitted(prompt.question) ? withCommitSubjects(continued, typedScored) : continued;
  const listed = asksForList(ownQuestion) ? withListSiblings(ownQuestion, committed, typedScored.filter((entry) => !namesSetAside(entry.unit)), querySet) : committed;
  const traced = asksForTrace(ownQuestion) ? withRecordTraces(listed, units) : listed;
  const picked = recordOrdinal ? withOrdinalRecords(traced, units, recordOrdinal.ordinal) : traced;
  return (asksWhyDecided(prompt.question) ? withCommitReasons(picked, scored, units, MAX_SENTENCES) : picked).map(({ unit, score }) => Object.freeze({ ref: unit.ref, text: unit.text, score }));
}
