/**
 * The named things of a goal that its evidence must be about: identifier-shaped tokens
 * ("billing-worker", "invoice.generate", "inv-20251130-018842", "744c0b5", "PS-4291"). Dates,
 * clock times and bare numbers are left out — they place an event in time but every source has
 * them — and so are short hyphenated English compounds ("on-call", "start-up", "month-end"),
 * which name no system. The goal's words are matched against evidence as written, case-folded,
 * so "checkout-api-7d9f8b6c5-x2k4p" mentions "checkout-api" but "checkout-apis" does not.
 */
import { MATCHING_STOPWORDS } from './english-stopwords';
import { MONTH_NAMES } from './moment-terms';
import { tokenize } from './text-terms';

const DATE_OR_TIME = /^\d{4}-\d{2}(-\d{2})?([t ].*)?$|^\d{1,2}:\d{2}(:\d{2})?$|^[\d.:,/-]+$/;
/**
 * Hyphenated compounds of two short words ("on-call", "start-up", "roll-out") are vocabulary, not names;
 * so is a verb with its particle of any length ("catching-up", "failing-over", "scaled-down"): as an
 * entity, "a catching-up positions sink" scoped the search to the other corpus's lines (freight fresh f170).
 */
const COMMON_COMPOUND = /^[a-z]{2,5}-[a-z]{2,4}$/;
const PHRASAL_VERB = /^[a-z]+(?:ing|ed)-(?:up|down|out|in|off|over|back|on|away|through)$/;
/** "catching-up", "scaled-down": a verb with its particle, written as one word; it names nothing. */
export const isPhrasalVerb = (token: string): boolean => PHRASAL_VERB.test(token);
const IDENTIFIER_SHAPED = /[a-z][_.:/-][a-z0-9]|[0-9][_.:/-]?[a-z]|[a-z][_.:/-]?[0-9]/;
/**
 * "mid-April", "early-March", "end-Q2": a part of the calendar, which places the goal in time and names
 * no system. As an entity it scoped every source none of whose hits says "mid-April" out of the
 * context: asked which build ran "in mid-April", the commits setting the image tag were dropped (freight dev d95).
 */
const CALENDAR_SPAN = new RegExp(String.raw`^(?:mid|early|late|end|start|pre|post)-(?:${MONTH_NAMES}|q[1-4]|year|month|week|monday|tuesday|wednesday|thursday|friday|saturday|sunday)$`, 'i');
export const namesCalendarSpan = (token: string): boolean => CALENDAR_SPAN.test(token);

export function namedEntities(goal: string): string[] {
  const found: string[] = [];
  for (const token of tokenize(goal)) {
    if (token.length < 4 || DATE_OR_TIME.test(token) || COMMON_COMPOUND.test(token) || isPhrasalVerb(token) || namesCalendarSpan(token)) continue;
    if (!IDENTIFIER_SHAPED.test(token)) continue;
    if (!found.includes(token)) found.push(token);
  }
  return found;
}

/**
 * Two adjacent words of the goal, neither a stopword, written apart as a user writes them
 * ("vehicle positions", "feature redis"): systems are named by such compounds and stored joined
 * ("vehicle-positions", "feature_redis"). They stand in for the goal's subject only when it names
 * nothing identifier-shaped: asked "Why are vehicle positions from 6 to 8 March missing from the
 * lake?", the stratified retrieval had no subject to scope to and gave half the context to another
 * corpus's OOMKilled events (issue 10, freight tune q01).
 */
export function compoundNames(goal: string): string[] {
  const tokens = tokenize(goal);
  const word = (token: string | undefined) => token !== undefined && /^[a-z]{3,}$/.test(token) && !MATCHING_STOPWORDS.has(token);
  const found: string[] = [];
  for (let index = 0; index + 1 < tokens.length; index++) {
    if (!word(tokens[index]) || !word(tokens[index + 1])) continue;
    const name = `${tokens[index]} ${tokens[index + 1]}`;
    if (!found.includes(name)) found.push(name);
  }
  return found;
}

export const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** How a compound's two words are written as one name: "-" or "_", with at most one word between ("warehouse_daily_load"). */
const JOINED = '[-_](?:[a-z0-9]+[-_])?';

/**
 * Whether `text` writes the spaced compound `compound` ("vehicle positions") as one name, joined by
 * "-" or "_" ("vehicle-positions", "feature_redis"). Two adjacent words of a goal are a system's name
 * only where the sources write them so; "new version" or "dbt project", written apart everywhere,
 * are the goal's phrasing, not a subject a source must mention.
 */
export function writesJoined(text: string, compound: string): boolean {
  return joinedPattern(compound).test(text.toLowerCase());
}

/** writesJoined's test for one compound, over text already in lower case: built once, run over every hit. */
export function joinedPattern(compound: string): RegExp {
  const [first, second] = compound.toLowerCase().split(' ');
  if (first === undefined || second === undefined) return /$^/;
  // One word may sit between them: "the warehouse load" is the DAG `warehouse_daily_load` (freight dev d57).
  return new RegExp(`(^|[^a-z0-9_])${escapeRegExp(first)}${JOINED}${escapeRegExp(second)}($|[^a-z0-9])`);
}

/**
 * A capitalised word named as an entity ("the Connect cluster", "Redis") is a proper name; written in
 * lower case it is usually the ordinary word ("connect() failed", "connect: connection refused" in a
 * web shop's ingress log: freight dev d45 kept that log beside Kafka Connect's). So a Titlecase
 * entity is named by the same word capitalised (or in capitals), or in lower case only as part of an
 * identifier ("kafka-2", "feature-redis", "kafka.kestrel.internal", "kafka_connect").
 */
const TITLECASE_WORD = /^[A-Z][a-z]+$/;
const ACRONYM_PLURAL = /^[A-Z]{2,}s$/;

function namesProperNoun(text: string, word: string): boolean {
  const lower = word.toLowerCase();
  if (new RegExp(`(^|[^A-Za-z0-9_])(?:${escapeRegExp(word)}|${escapeRegExp(word.toUpperCase())})($|[^A-Za-z0-9_])`).test(text)) return true;
  return new RegExp(`[A-Za-z0-9][-_./]${escapeRegExp(lower)}($|[^a-z0-9])|(^|[^a-z0-9])${escapeRegExp(lower)}[-_./][A-Za-z0-9]`).test(text.toLowerCase());
}

/**
 * Whether `text` names `entity` as a whole token (a longer identifier that extends it with "-…" still
 * counts). The words of a spaced compound ("vehicle positions") may also be joined by "-" or "_".
 */
export function mentions(text: string, entity: string): boolean {
  if (TITLECASE_WORD.test(entity)) return namesProperNoun(text, entity);
  // "ETAs", "APIs", "DAGs": an acronym's plural is named by the acronym too ("a static ETA", "eta-api").
  if (ACRONYM_PLURAL.test(entity) && mentions(text, entity.slice(0, -1))) return true;
  const lower = entity.toLowerCase();
  const lowerText = text.toLowerCase();
  if (namesClusterMember(lowerText, lower)) return true;
  if (namesInIdentifierParts(lowerText, lower)) return true;
  // An abbreviated commit SHA names the commit whose full SHA it starts.
  const tail = /^[0-9a-f]{7,40}$/.test(lower) ? '[0-9a-f]*' : '';
  const pattern = /^[a-z]+ [a-z]+$/.test(lower) ? lower.replace(' ', `(?: |${JOINED})`) : escapeRegExp(lower);
  // A snake_case name ends the longer names built on it: the check "not_null_stg_shipments_delivered_at"
  // names the column delivered_at, and scoping to the goal's entities dropped every log line of the
  // failed test (freight fresh f80).
  const left = lower.includes('_') ? '(^|[^a-z0-9])' : '(^|[^a-z0-9_])';
  return new RegExp(`${left}${pattern}${tail}($|[^a-z0-9_]|-)`).test(lowerText);
}

/** A compound of two words ("static-eta", "vehicle-positions"): an entity an identifier may spell in parts. */
const TWO_WORD_COMPOUND = /^([a-z]{3,})-([a-z]{3,})$/;

/**
 * Identifiers put the noun first and the qualifiers after ("eta_static_fallback_pct"), where a
 * question writes "the static-ETA percentage": a two-word compound is also named by an identifier
 * holding its words as parts in the other order, at most one part apart. As written ("static-eta")
 * only, the metric series of that percentage was scoped out of the context of a question naming it so
 * (freight fresh f53). Not in the same order joined otherwise: "vehicle_positions" is the misspelt
 * prefix of an incident, not the topic "vehicle-positions" (freight fresh f38).
 */
function namesInIdentifierParts(lower: string, entity: string): boolean {
  const match = TWO_WORD_COMPOUND.exec(entity);
  if (!match) return false;
  const [first, second] = [escapeRegExp(match[1]), escapeRegExp(match[2])];
  return new RegExp(`(^|[^a-z0-9])${second}${JOINED}${first}($|[^a-z0-9]|[-_])`).test(lower);
}

/** How a numbered member of a cluster is written by its peers' logs: "broker 3", "brokerId: 3", "node=3". */
const MEMBER_ROLES = 'broker|node|replica|server|instance|member';
const CLUSTER_MEMBER = /^([a-z][a-z0-9]*)-(\d{1,3})$/;

/**
 * "kafka-3" is named by kafka-2's log as "broker 3": a cluster member's host name is its cluster and
 * its id, and its peers log the id with its role. So a text that names the cluster (any of its
 * members, "kafka-2-server.log") and the member's role with that id names the member (freight dev d46:
 * "Controlled shutdown of broker 3" was dropped from a question about kafka-3 as naming no kafka-3).
 */
function namesClusterMember(lower: string, entity: string): boolean {
  const patterns = memberPatterns(entity);
  return patterns !== undefined && patterns.cluster.test(lower) && patterns.member.test(lower);
}

/** Built once per entity: scoping asks about the same few names for every hit of a search. */
const MEMBER_PATTERNS = new Map<string, { cluster: RegExp; member: RegExp } | undefined>();
const MAX_MEMBER_PATTERNS = 256;

function memberPatterns(entity: string): { cluster: RegExp; member: RegExp } | undefined {
  if (MEMBER_PATTERNS.has(entity)) return MEMBER_PATTERNS.get(entity);
  const match = CLUSTER_MEMBER.exec(entity);
  const patterns = match ? { cluster: new RegExp(`(^|[^a-z0-9_])${match[1]}($|[^a-z0-9_])`), member: new RegExp(`(^|[^a-z0-9_])(?:${MEMBER_ROLES})(?:[ _]?id)?(?: ?[:=] ?| )${match[2]}($|[^0-9.])`) } : undefined;
  if (MEMBER_PATTERNS.size >= MAX_MEMBER_PATTERNS) MEMBER_PATTERNS.clear();
  MEMBER_PATTERNS.set(entity, patterns);
  return patterns;
}
