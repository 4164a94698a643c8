/**
 * The parts of a compound question: "When did it fire, and why did the on-call not act on it?"
 * asks two things, and an answer of the four sentences that best match the whole question may
 * answer only one (freight dev d38: the timeline sentence saying when the page fired and why it was
 * ignored ranked 7th, under lines about the outage the question's preamble describes). Each part
 * that asks something gets the best sentence holding a word only that part has, when none of the
 * chosen sentences holds one (Gillick & Favre's concept coverage, with the parts as the concepts).
 * When no sentence of the context holds such a word ("what was wrong with the policy": "wrong" is
 * nowhere), the part gets its best sentence not quoted yet on any of its words (dev d02: "The policy
 * allowed topics/vehicle_positions/* (underscore)").
 */
import { askedInstants, askedMoments } from '../../runtime/text/moment-terms';
import { idiomTerms } from '../../runtime/text/operator-idioms';
import { contentTerms, stem } from '../../runtime/text/text-terms';
import { asksModule, countedTerms } from './extractive-answer-type';
import { answerWordsAsked } from './extractive-asked-labels';

const WH_WORDS = 'when|why|who|whom|whose|what|which|where|how';
/** Words that open a question: a wh-word or an auxiliary ("did it …", "was it …"). */
const OPENERS = `${WH_WORDS}|am|is|are|was|were|did|does|do|can|could|should|must|will|would|has|have|had`;
/** A part asks when it opens with one of the OPENERS, perhaps after a hedge or a link ("roughly how many …", "so what …"; fresh f205). */
/** A wh-word that heads a prepositional phrase asks as well: "by when do we need …", "at what time did that try end", "in which state …". */
const PREPOSED = String.raw`(?:by|until|till|since|from|to|for|in|on|at|after|before|through|via|with|under|during|into)\s+(?=(?:when|what|which|where|whom|how)\b)`;
const ASKS = new RegExp(String.raw`^(?:(?:roughly|approximately|about|around|exactly|so|also|then|and|ok|okay)\s+)?(?:${PREPOSED})?(?:${OPENERS})\b`, 'i');
/** Sentence ends; a comma or semicolon (and "and"/"or"/"but") before an opener; "and"/"but" before a wh-word: where one question becomes two. */
const PART_BREAK = new RegExp(String.raw`[.?!]\s+|[,;]\s*(?:and|or|but)?\s*(?=(?:${PREPOSED})?(?:${OPENERS})\b)|\s+(?:and|but)\s+(?=(?:${PREPOSED})?(?:${WH_WORDS})\b)`, 'i');

export interface QuestionPart {
  /** The part as the question words it. */
  readonly text: string;
  /** Its content terms no other part of the question has. */
  readonly distinctive: ReadonlySet<string>;
  /** All its content terms. */
  readonly terms: ReadonlySet<string>;
  /**
   * "… and what do I do if it has?": a part that asks what to do in a case the question already
   * described, in words that are all function words. Its answer is the instruction for that case
   * ("If a committed offset is below the log start offset, … open an incident (SEV-2)"): a sentence
   * that opens with its condition, in a passage the answer already quotes.
   */
  readonly asksConditionalStep?: boolean;
  /**
   * "… and what has to happen to the connector before the offsets are touched?": a part asking what
   * comes before a step. Its answer states an order ("The connector must be stopped first", "Before
   * the reset, stop …"); a sentence merely naming the connector ("Do not delete and re-create a
   * connector …") shares its words but not the order asked for (freight dev d88).
   */
  readonly asksPrecondition?: boolean;
  /**
   * "roughly how many trucks are in the fleet, and how often does a truck send a ping?": a part asking
   * a count is spoken to only by a sentence binding a number to what it counts ("runs about 4,200
   * trucks"); the ping sentence names the trucks and states no count of them (freight fresh f205).
   */
  readonly counted?: ReadonlySet<string>;
  /**
   * "… and which module does it come from?": a part asking where a name is imported from is spoken to by
   * the import (`from kdp.alerts import slack_on_failure`), which holds none of its words (freight fresh f334).
   */
  readonly asksModule?: boolean;
  /**
   * "how much memory was it using at the 06:00 UTC sample on 14 April, and what did the health check
   * report at 06:40?": a part naming an instant of its own is spoken to only by a line stating that
   * instant; the 06:40 log line shares its words, not its reading (freight fresh f353).
   */
  readonly instants?: ReadonlySet<string>;
  /**
   * "At what time on 24 March did the test pass again in the manual re-run?": a part asking when something
   * happened is answered by the record of the event, not by a metric row sampled that day, which shares the
   * test's name, nor by a commit's sentence about another day (freight fresh f351). The days the part names, if any.
   */
  readonly asksEventTime?: { readonly days: ReadonlySet<string> };
  /**
   * "What are the names of the two Feast entities …", "which of its fields holds …": a part asking which members
   * of a kind are meant is spoken to only by a line naming the kind (`entities=[driver, route_segment]`,
   * `Field(name="traversals_90d", …)`), not by a commit sentence about the same view's segments (freight fresh f310).
   * The kind's stem.
   */
  readonly member?: string;
  /**
   * "Through which mechanism does the commit that moved the sinks to the lake-writer role say they get their
   * credentials": the relative clause's words pick out the commit, they are not what is asked. A sentence
   * holding only them (the timeline's "change 'Move Connect S3 sinks to the lake-writer IAM role' merged")
   * names the thing, and does not speak to the part (freight fresh f321).
   */
  readonly identifying?: ReadonlySet<string>;
}

/** "the commit that moved … role say …": a noun and its relative clause, up to the verb of what its sentence reports. */
const RELATIVE_CLAUSE = /\b(?:the|a|an)\s+([a-z][\w-]*\s+(?:that|which|who)\s+.+?)\s+(?:say|says|said|mention|mentions|give|gives|state|states|explain|explains|list|lists|show|shows|name|names)\b/i;

function identifyingPart(part: string): { identifying?: ReadonlySet<string> } {
  const clause = RELATIVE_CLAUSE.exec(part)?.[1];
  return clause ? { identifying: new Set(contentTerms(clause)) } : {};
}

/** "the names of the two Feast entities", "which of its fields": the plural noun whose members are asked for. */
const MEMBERS_ASKED = /\bnames?\s+of\s+(?:(?:the|its|their|these|those)\s+)?(?:(?:two|three|four|five|six|\d+)\s+)?(?:[\w.-]+\s+)?([a-z]{3,}s)\b|\bwhich\s+of\s+(?:its|the|their|these|those)\s+([a-z]{3,}s)\b/i;

function memberPart(part: string): { member?: string } {
  const match = MEMBERS_ASKED.exec(part);
  const noun = match?.[1] ?? match?.[2];
  return noun ? { member: stem(noun.toLowerCase()) } : {};
}

/** The counted words of a part asking "how many …", as QuestionPart.counted. */
function countedPart(part: string): { counted?: ReadonlySet<string> } {
  const counted = countedTerms(part);
  return counted ? { counted } : {};
}

/** "at what time did …", "when did …": a part asking the moment of an event. */
const EVENT_TIME = /^(?:\w+\s+)?(?:at\s+)?(?:what|which)\s+time\b|^(?:\w+\s+)?when\s+(?:did|does|was|were|is|has|had)\b/i;
/** "the run for 22 March": the day a run is for, which it runs after; the event is logged on another day (fresh f320). */
const RUN_FOR_DAY = /\b((?:run|load|build|backfill|job)s?)\s+(?:for|of)\s+(?:\d{1,2}\s+[a-z]+|[a-z]+\s+\d{1,2})(?:,?\s+\d{4})?/gi;
/** …unless it asks for a reading: "at what time does the metric show 0 rows?", "which sample …". */
const READING_NOUN = /\b(?:sample|reading|row|metric|series|value)s?\b/i;

/** The instants a part names with its day, as QuestionPart.instants. */
function instantsPart(part: string): { instants?: ReadonlySet<string> } {
  const instants = askedInstants(part);
  return instants.length > 0 ? { instants: new Set(instants) } : {};
}

/** "what has to happen … before …", "what must I do before …", "which step comes before …". */
const PRECONDITION = /^(?:what|which|how)\b.*\bbefore\b/i;
/** Whether a sentence of the question asks what has to happen before something ("What has to be in place before I run that?"). */
export const asksWhatComesFirst = (question: string): boolean => question.split(/(?<=[.?!])\s+/).some((sentence) => PRECONDITION.test(sentence.trim()));
/** A sentence that states an order of steps. */
export const STATES_ORDER = /\b(?:first|before|beforehand|prior to|until|only after)\b/i;

/** "what do I do if …", "what should we do when …", "and if it has, what then?" */
const CONDITIONAL_STEP = /^(?:what|how)\s+(?:do|should|must|can|could|would)\s+(?:i|we|you|one)\s+(?:do|proceed|react|respond)\s+(?:if|when|once|in case)\b/i;

/**
 * "What IOPS and throughput are provisioned on the data disks?", "which retention and partition count
 * does the topic have?": two things asked for by name in one clause, each answered by its own line
 * (`iops = 6000`, `throughput = 500`); the first one quoted left the second out (freight fresh f156).
 */
const COORDINATED_ASK = /\b(?:what|which)\s+(?:(?:the|its|their)\s+)?([a-z][\w-]*)\s+and\s+(?:(?:the|its|their)\s+)?([a-z][\w-]*(?:\s+(?:count|size|limit|type|class|policy))?)\s+(?:are|is|were|was|do|does|did|has|have)\b/i;

/** Each thing a clause asks for by name, as a part of its own. */
function coordinatedParts(question: string): readonly QuestionPart[] | undefined {
  const match = COORDINATED_ASK.exec(question);
  if (!match) return undefined;
  const [first, second] = [new Set(contentTerms(match[1])), new Set(contentTerms(match[2]))];
  if (first.size === 0 || second.size === 0 || [...first].some((term) => second.has(term))) return undefined;
  return [first, second].map((terms, index) => ({ text: match[index + 1], distinctive: terms, terms }));
}

/** The asking parts of a compound question; undefined when the question asks one thing. */
export function questionParts(question: string): readonly QuestionPart[] | undefined {
  const parts = question.split(PART_BREAK).map((part) => part.trim()).filter((part) => part.length > 0);
  if (parts.length < 2) return coordinatedParts(question);
  // "… and who wrote the postmortem?" is answered by its "Author:" line, a word the part lacks.
  const termsOf = parts.map((part) => new Set([...contentTerms(part).filter((term) => !/^\d{1,2}$/.test(term)), ...answerWordsAsked(part), ...idiomTerms(part)]));
  const asking = parts.flatMap((part, index) => (ASKS.test(part) ? [index] : []));
  if (asking.length < 2) return coordinatedParts(question);
  return asking
    .map((index) => ({
      text: parts[index],
      distinctive: new Set([...termsOf[index]].filter((term) => termsOf.every((other, otherIndex) => otherIndex === index || !other.has(term)))),
      terms: termsOf[index],
      ...(termsOf[index].size === 0 && CONDITIONAL_STEP.test(parts[index]) ? { asksConditionalStep: true } : {}),
      ...(PRECONDITION.test(parts[index]) ? { asksPrecondition: true } : {}),
      ...countedPart(parts[index]),
      ...(asksModule(parts[index]) ? { asksModule: true } : {}),
      ...instantsPart(parts[index]),
      ...memberPart(parts[index]),
      ...identifyingPart(parts[index]),
      ...(EVENT_TIME.test(parts[index]) && !READING_NOUN.test(parts[index]) ? { asksEventTime: { days: new Set(askedMoments(parts[index].replace(RUN_FOR_DAY, '$1'))) } } : {}),
    }))
    .filter((part) => part.terms.size > 0 || part.asksConditionalStep);
}
