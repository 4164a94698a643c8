import { MATCHING_STOPWORDS } from '../../runtime/text/english-stopwords';
import { configuredCountNoun, isSettingWord, switchedSubject, whichNamedAsks } from '../../runtime/planner/setting-question';
import { withoutSetAside } from '../../runtime/text/set-aside-phrases';
import { describedSettings, describedToolSettings } from '../../runtime/text/setting-behaviours';
import { namedEntities } from '../../runtime/text/named-entities';
import { stem, tokenize } from '../../runtime/text/text-terms';
import { SPACED_SETTING_PLACE } from './extractive-settings';

/**
 * The expected answer type of a count question. "How many X …?" asks for a number of X (the
 * NUM:count class of Li & Roth 2002); factoid readers keep only candidates of the expected type
 * (Harabagiu et al. 2000, FALCON; Prager et al. 2000, predictive annotation). For the extractive
 * reader the candidate is a sentence, and it has the type when it binds a number to the counted
 * noun: "back to 4 replicas", "the eight billing-worker consumers". A sentence that repeats the
 * noun without a count ("more replicas while we look") or holds a number about something else
 * ("0/6 nodes are available") cannot say how many.
 */
/** "How many of the partitions it was leading …": the partitive "of the" stands before what is counted (freight dev d46). */
const COUNT_QUESTION = /\bhow many\s+(?:of\s+(?:the|its|their|these|those|our|his|her)\s+)?(.+)$/i;

/** A unit word the question names in parentheses for its answer: "(in records)", "(in messages)". */
const ASKED_UNIT = /\(\s*in\s+([a-z]{3,})\s*\)/i;

/** Tokens after "how many" that may name what is counted: "eta-api replicas run" — the noun phrase and perhaps its verb. */
const COUNTED_WINDOW = 3;

/** A number may stand this many tokens before its noun ("8 billing-worker consumers", "4 eta-api replicas"). */
const MODIFIER_GAP = 2;

/** English cardinals as words: how prose writes small counts ("the eight consumers"). */
const NUMBER_WORDS: ReadonlySet<string> = new Set(
  'one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen nineteen twenty thirty forty fifty sixty seventy eighty ninety hundred dozen'.split(' '),
);

const isNumber = (token: string) => /^\d+(?:[.,]\d+)?$/.test(token) || NUMBER_WORDS.has(token);

/**
 * Stems of the words a count question counts, or undefined when it is not a count question:
 * "How many eta-api replicas run in production?" → replica, run. The window stops at the first
 * stopword, which ends the noun phrase ("… consumers process the queue"); a name in it
 * ("eta-api", "invoice.generate") says whose things are counted, not what, and is skipped.
 */
export function countedTerms(question: string): ReadonlySet<string> | undefined {
  // "How far behind (in records) was …?": the unit the question asks the number in is what it counts.
  const unit = ASKED_UNIT.exec(question);
  if (unit) return new Set([stem(unit[1].toLowerCase())]);
  const match = COUNT_QUESTION.exec(question.trim());
  if (!match) return undefined;
  const terms = new Set<string>();
  const tokens = tokenize(match[1]);
  for (const token of tokens.slice(0, COUNTED_WINDOW)) {
    if (MATCHING_STOPWORDS.has(token)) break;
    if (/^[a-z]+$/.test(token) && token.length > 1) terms.add(stem(token));
  }
  // "How many times does Airflow retry it …?" counts retries: a setting "retries": 2 states the count,
  // and no sentence writes "2 times". The clause's other words name what happens that many times.
  if (terms.size === 1 && terms.has('time')) {
    for (const token of tokens.slice(1, TIMES_CLAUSE_WINDOW)) {
      if (/^[,;?.!]$/.test(token)) break;
      if (/^[a-z]+$/.test(token) && token.length > 2 && !MATCHING_STOPWORDS.has(token)) terms.add(stem(token));
    }
  }
  return terms.size > 0 ? terms : undefined;
}

/** Words after "how many times" read for what is counted ("does Airflow retry it on its own"). */
const TIMES_CLAUSE_WINDOW = 8;

/** "replicas: 4", "consumers=8", "\"retries\": 2", "\"tasks.max\": \"2\"": a setting whose key is the counted word. */
const KEY_VALUE = /([A-Za-z][\w.-]*)"?\s*[:=]\s*"?\d+\b/g;

/** "--threads 8", "--workers=4": a command-line flag named by the counted word, set to a count. */
const FLAG_VALUE = /--([a-z][\w-]*)[ =]"?\d+\b/g;

/** "try 3 of 3", "attempt 2 of 4": the counted word, then which one of how many. */
const ONE_OF_MANY = /\b([a-z]+)\s+\d+\s+of\s+\d+\b/gi;

/**
 * Whether `text` puts a number right before a counted word ("back to 4 replicas"), sets a counted key
 * or flag to one ("replicas: 4", "--threads 8"; fresh f123) or numbers one of them out of all ("try 3 of
 * 3": three tries in all).
 */
export function statesCount(text: string, counted: ReadonlySet<string>): boolean {
  const counts = (token: string) => token.split(/[_.:/-]+/).some((part) => counted.has(stem(part)));
  const tokens = tokenize(text);
  const before = tokens.some((token, index) => isNumber(token) && tokens.slice(index + 1, index + 2 + MODIFIER_GAP).some(counts));
  const keyed = [...text.matchAll(KEY_VALUE), ...text.matchAll(FLAG_VALUE)].some((match) => counts(match[1].toLowerCase()));
  return before || keyed || [...text.matchAll(ONE_OF_MANY)].some((match) => counts(match[1].toLowerCase()));
}

/**
 * The answer type a "which/what <noun> …?" question names: "Which team owns eta-api?" asks for a
 * team, "Which commit fixed …?" for a commit (the ENTITY classes of Li & Roth 2002, read from the
 * question's head noun as in FALCON's answer-type detection). A name before the noun says whose
 * ("Which kdp-infra change" → change); a verb or pronoun after the wh-word ("What was …", "Which
 * of …") means no head noun; a head answered by a value ("What time …", "which day") types nothing.
 * Returns the head nouns' stems of every such clause ("which team … and which team …"), or undefined.
 */
const TYPED_QUESTION = /\b(?:which|what)\s+([a-z][\w.-]*)(?:\s+([a-z][\w.-]*))?(?:\s+([a-z][\w.-]*))?/gi;
const NOT_A_HEAD = /^(?:is|are|was|were|do|does|did|has|have|had|can|could|should|would|will|of|the|a|an|it|its|they|this|that|these|those|kind|sort|type|happened|changed|caused|made)$/;
const isName = (token: string) => /[-_.\d]/.test(token);
/** Heads answered by a value rather than by a sentence naming the noun ("What time …?" → "at 03:30"). */
const VALUE_HEADS: ReadonlySet<string> = new Set('time,times,day,days,date,dates,year,month,week,hour,hours,minute,minutes,version,versions,number,value,values,size,amount,percentage,share,port,limit,count'.split(','));

/** A noun that makes the one before it a modifier of a value: "instance type" is answered by "r6i.2xlarge". */
const VALUE_KINDS: ReadonlySet<string> = new Set(['type', 'types', 'kind', 'class', 'name', 'names', 'setting', 'level']);

/**
 * "What was changed in …?", "what changed after …?": no head noun, but the verb asks for a change,
 * which a commit's subject or changed lines state ("6 replicas changed nothing" uses the word, states none).
 */
const ASKS_WHAT_CHANGED = /\bwhat (?:(?:was|were|has been|have been|got) )?(?:changed|modified)\b/i;
export const asksWhatChanged = (question: string): boolean => ASKS_WHAT_CHANGED.test(question);

/**
 * "Where in kdp-infra are the alert rules kept?", "where does that connector's definition live?", "where do
 * I find the log of one try?": where something is kept, defined, lives or is found asks for its path, as
 * "which file" does (fresh f192, f286).
 */
const WHERE_KEPT = /\bwhere\b(?:(?!\b(?:and|or|but)\b)[^?.,;])*\b(?:kept|defined|declared|stored|configured|lives?|find|located)\b/i;

export function askedTypeTerms(question: string): ReadonlySet<string> | undefined {
  const terms = new Set<string>(WHERE_KEPT.test(question) ? ['file'] : []);
  for (const match of question.toLowerCase().matchAll(TYPED_QUESTION)) {
    const [first, second, third] = [match[1], match[2], match[3]];
    const [head, next] = isName(first) ? [second, third] : [first, second];
    if (!head || NOT_A_HEAD.test(head) || isName(head) || MATCHING_STOPWORDS.has(head) || VALUE_HEADS.has(head)) continue;
    // "What instance type …", "which Kafka version …": the noun modifies a value head, and the answer is that value.
    if (next && (VALUE_HEADS.has(next) || VALUE_KINDS.has(next))) continue;
    terms.add(stem(head));
  }
  return terms.size > 0 ? terms : undefined;
}

/** Head nouns a commit answers by what it is: its subject line and changed lines are a change, whatever their words. */
export const CHANGE_HEADS: ReadonlySet<string> = new Set(['chang', 'commit', 'fix', 'merg', 'revert']);

/**
 * "What EC2 instance type …?", "what type of EBS volume …?": a value kind ("type", "class", "level")
 * with the noun it qualifies asks for the value of a setting keyed by both ("instance_type = …",
 * "data_volume: type = …"). Returns one word list per such clause: the kind, then the nouns it
 * qualifies; none when the question asks for no value kind.
 */
const KIND_BEFORE = /\b(?:which|what)\s+(?:[a-z][\w.-]*\s+)?([a-z]+)\s+(type|kind|class|level)\b/gi;
/**
 * "What's the memory limit on …?", "what is the retry delay …": a setting named by two nouns, whose key
 * holds both ("resources: limits: {memory: 3Gi}"). Not "what is the X Y" for any Y: only nouns that
 * name a configured quantity, else "what is the main reason" would look for a key "reason".
 */
const SETTING_NAMED = /\bwhat(?:'s|\s+is|\s+are)\s+the\s+(?:[a-z][\w.-]*\s+)?([a-z]+)\s+(limits?|timeouts?|ttl|retention|delay|interval|size|policy|schedule|replicas|partitions)\b/gi;
const KIND_OF = /\b(?:which|what)\s+(type|kind|class|level)\s+of\s+([a-z][\w.-]*)(?:\s+([a-z][\w.-]*))?/gi;

export interface AskedSettingKey {
  readonly kind: string;
  readonly qualifiers: ReadonlySet<string>;
}

export function askedSettingKeys(question: string): readonly AskedSettingKey[] {
  const asked: AskedSettingKey[] = [];
  const noun = (token: string | undefined) => token !== undefined && /^[a-z]{3,}$/.test(token) && !MATCHING_STOPWORDS.has(token) && !NOT_A_HEAD.test(token);
  for (const pattern of [KIND_BEFORE, SETTING_NAMED]) {
    for (const match of question.toLowerCase().matchAll(pattern)) {
      if (noun(match[1])) asked.push({ kind: stem(match[2]), qualifiers: new Set([stem(match[1])]) });
    }
  }
  for (const match of question.toLowerCase().matchAll(KIND_OF)) {
    const qualifiers = [match[2], match[3]].filter(noun).map((token) => stem(token!));
    // "What kind of EBS volume …?" is keyed as its type ("data_volume: type = gp3"; freight fresh f124).
    const kinds = match[1] === 'kind' ? ['kind', 'type'] : [match[1]];
    if (qualifiers.length > 0) asked.push(...kinds.map((kind) => ({ kind: stem(kind), qualifiers: new Set(qualifiers) })));
  }
  return [...asked, ...behaviourSettingKeys(question), ...resourceCapKeys(question), ...valueNounKeys(question), ...switchedSettingKeys(question)];
}

/**
 * "Is append-only (AOF) persistence turned on?" is answered by the setting keyed by what it switches
 * (`appendonly no`), which a changed line states under a commit's other lines and a log line about
 * the same instance outscored (freight fresh f97). A word the clause says, or a hyphenated pair
 * joined ("append-only" → appendonly), keys it alone; a name's parts do not ("feature-redis" would
 * key every line of its file).
 */
export function switchedSettingKeys(question: string): AskedSettingKey[] {
  const subject = switchedSubject(question);
  if (subject === undefined) return [];
  const words = tokenize(subject)
    .map((token) => (/^[a-z]+-[a-z]+$/.test(token) ? token.replace('-', '') : token))
    .filter((token) => /^[a-z]{3,}$/.test(token) && !MATCHING_STOPWORDS.has(token) && !NOT_A_HEAD.test(token));
  return words.map((word) => ({ kind: stem(word), qualifiers: new Set([stem(word)]) }));
}

/**
 * "What compression codec are the Parquet files written with?", "which eviction policy is it running?",
 * "which KMS key do the sinks encrypt with?": a value noun asked for whose key holds it and a word the
 * question says of the thing configured (`"parquet.codec": "snappy"`, `"s3.sse.kms.key.id"`), which a
 * sentence repeating the question's words about the files outscored (freight fresh f66, f125).
 */
// "Which IAM policy document controls who may assume the role?" names the policy by what it is kept in and by what it does (fresh f366).
const VALUE_NOUN = /\b(?:which|what)\s+(?:([a-z]+)\s+)?(codec|format|encoding|algorithm|cipher|mode|policy|strategy|key|region)(?:\s+(?:document|statement))?\s+(?:is|are|was|were|does|do|did|controls|governs|decides)\b(.*)$/i;
/**
 * "Which feature views does the hourly job push into redis?": a plural noun asked for is a list a key
 * names (`FEATURE_VIEWS = ['vehicle_eta_features', 'driver_segment_stats']`), which the commit subject
 * naming one of them in the question's words outscored (freight fresh f93).
 */
const LISTED_NOUN = /\b(?:which|what)\s+(?:([a-z][a-z0-9]*)\s+)?(?:([a-z][a-z0-9]*)\s+)?([a-z]{3,}s)\s+(?:does|do|did|is|are|were|will)\b(.*)$/i;
export function valueNounKeys(question: string): AskedSettingKey[] {
  const lower = question.toLowerCase();
  const value = VALUE_NOUN.exec(lower);
  // "What S3 write actions does the role's policy grant?": a listed noun may take two words before it (fresh f126).
  const listed = value ? undefined : LISTED_NOUN.exec(lower);
  // "Which Looker datagroup does the refresh_looker_cache task refresh?": any noun asked of a named component (fresh f215).
  const used = value || listed ? undefined : whichNamedAsks(question);
  const match = value ? { modifiers: [value[1]], kind: value[2], rest: value[3] } : listed ? { modifiers: [listed[1], listed[2]], kind: listed[3], rest: listed[4] } : used ? { modifiers: used.modifiers, kind: used.noun, rest: used.rest } : undefined;
  if (!match) return [];
  const said = [...match.modifiers.map((word) => word ?? ''), ...tokenize(match.rest).flatMap((token) => token.split(/[_.-]+/))];
  const qualifiers = new Set(said.filter((token) => /^[a-z]{3,}$/.test(token) && !MATCHING_STOPWORDS.has(token) && !NOT_A_HEAD.test(token)).map(stem));
  if (qualifiers.size === 0) return [];
  // "Which record name and namespace does the schema declare?" asks for two keys: `"name": …` as well as `"namespace": …` (fresh f300).
  const joined = match.modifiers.indexOf('and');
  const coordinated = joined > 0 ? match.modifiers[joined - 1]?.split(/[_.-]+/).pop() : undefined;
  const kinds = [match.kind, ...(coordinated && /^[a-z]{3,}$/.test(coordinated) ? [coordinated] : [])].map(stem);
  return kinds.map((kind) => ({ kind, qualifiers: new Set([...qualifiers].filter((term) => term !== kind)) }));
}

/**
 * "How much memory is the pod allowed to use before Kubernetes kills it?" asks for a resource's limit
 * in words that name none: `"limits": {"memory": "8Gi"}`, which the commit saying the pods were
 * OOM-killed outscored by the words it shares with the question (freight fresh f63).
 */
const RESOURCE_CAP = /\bhow (?:much|many) ([a-z]+)\b[^?]*\b(?:allowed|permitted|may|can) (?:to )?(?:use|get|take|have|consume|grow)\b|\bhow (?:much|many) ([a-z]+) (?:can|may|is|are|does|do|will)\b[^?]*\b(?:before|until) (?:\w+ ){0,3}(?:kill(?:s|ed)?|evict(?:s|ed)?|throttl(?:es|ed))\b|\b(?:max(?:imum)?|cap on|ceiling on|upper bound on) (?:of |on )?(?:the )?([a-z]+)\b/i;
/** "How much CPU does each eta-api pod request?": what a pod asks the scheduler for, `resources: requests: {cpu: "1"}` (fresh f213). */
const RESOURCE_REQUEST = /\bhow (?:much|many) ([a-z]+) (?:does|do|is|are|will)\b[^?]*\b(?:request|requests|requested|reserve|reserves|reserved)\b/i;
export function resourceCapKeys(question: string): AskedSettingKey[] {
  const request = RESOURCE_REQUEST.exec(question);
  const match = request ? undefined : RESOURCE_CAP.exec(question);
  const resource = request?.[1] ?? match?.[1] ?? match?.[2] ?? match?.[3];
  const kind = request ? 'requests' : 'limits';
  return resource === undefined || MATCHING_STOPWORDS.has(resource) || NOT_A_HEAD.test(resource) ? [] : [{ kind: stem(kind), qualifiers: new Set([stem(resource.toLowerCase())]) }];
}

/**
 * A behaviour a "how long" clause describes, as the setting that configures it (runtime/text/setting-behaviours.ts):
 * "How long does eta-api wait on feature-redis before it gives up on the read?" is answered by
 * `FEATURE_FETCH_TIMEOUT_MS: "40"`, which a log line stating other milliseconds ("feature_fetch_p99=23ms")
 * outscored by the words it shares with the question (freight fresh f31). The clause's own words
 * (names split at their hyphens) are the qualifiers a key must share, so another service's timeout does not qualify.
 */
export function behaviourSettingKeys(question: string): AskedSettingKey[] {
  const { clause, behaviours } = describedSettings(question);
  const words = tokenize(clause)
    .flatMap((token) => token.split(/[_.-]+/))
    .filter((token) => /^[a-z]{3,}$/.test(token) && !MATCHING_STOPWORDS.has(token) && !NOT_A_HEAD.test(token) && !NOT_QUALIFIERS.test(token));
  return behaviours.flatMap(({ kinds, names }) => {
    const qualifiers = new Set([...words, ...names].map(stem));
    return qualifiers.size === 0 ? [] : kinds.map((kind) => ({ kind: stem(kind), qualifiers }));
  });
}
/**
 * A tool's setting asked about by what it does ("will Airflow run the missed days?" → `catchup`, "where
 * does its config take the password from?" → `requirepass`), qualified by the things the question names
 * (`warehouse_daily_load` in the DAG's path, `feature-redis` in the config file's), or by its words when
 * it names none (freight fresh f153, f154, f155).
 */
export function toolSettingKeys(question: string): AskedSettingKey[] {
  const behaviours = describedToolSettings(question);
  if (behaviours.length === 0) return [];
  const named = namedEntities(question).flatMap((name) => name.split(/[_.:/-]+/));
  const words = (named.length > 0 ? named : tokenize(question)).filter((token) => /^[a-z]{3,}$/.test(token) && !MATCHING_STOPWORDS.has(token) && !NOT_A_HEAD.test(token));
  const qualifiers = new Set(words.map(stem));
  return qualifiers.size === 0 ? [] : behaviours.flatMap(({ kinds }) => kinds.map((kind) => ({ kind: stem(kind), qualifiers })));
}

/**
 * "How many times does Airflow retry it …?" describes a count a setting holds, keyed by what is done:
 * `"retries": 2`, which runbook steps naming the same task outscored (freight fresh f03). The names the
 * question gives (`warehouse_daily_load`, split at their underscores) are the qualifiers, so another
 * DAG's retries do not answer it; a question naming none describes no key.
 */
const TIMES_DONE = /\bhow many times (?:does|do|did|will|would|can|may|is|are)\s+(?:the\s+|its\s+|their\s+)?[\w.-]+\s+([a-z]{3,})\b/i;
export function timesDoneSettingKeys(question: string): AskedSettingKey[] {
  // "How many tasks does the shipment-events connector run?" is keyed by what is counted: `"tasks.max": "2"` (fresh f121).
  // Not a setting word ("how many partitions does it have?"): the asked setting reads it already, and
  // keyed here too, every topic's partitions were quoted ahead of the asked topic's retention (dev d93).
  const counted = configuredCountNoun(question);
  const done = TIMES_DONE.exec(question)?.[1].toLowerCase() ?? (counted && !isSettingWord(counted) ? counted : undefined);
  if (!done || MATCHING_STOPWORDS.has(done) || NOT_A_HEAD.test(done)) return [];
  const qualifiers = new Set(
    tokenize(withoutSetAside(question))
      .filter((token) => /[_-]/.test(token))
      .flatMap((token) => token.split(/[_.-]+/))
      .filter((part) => /^[a-z]{3,}$/.test(part) && !MATCHING_STOPWORDS.has(part))
      .map(stem),
  );
  return qualifiers.size === 0 ? [] : [{ kind: stem(done), qualifiers }];
}

/** The behaviour's own words and the clause's connectives: what a key holding the setting does not share. */
const NOT_QUALIFIERS = /^(?:wait|waits|waiting|give|gives|giving|time|times|keep|keeps|kept|hold|holds|retain|retains|live|lives|stay|stays|valid|long|before|after|between|tries|attempts|kill|kills|killed)$/;

/** A setting's key, with the blocks it sits in: what stands before its value ("kafka-brokers.tf › data_volume: type"). */
const SETTING_VALUE = /\s*(?:=|:\s)\s*[^=:]*$/;
/** A changed line's mark ("added: appendonly no"): the setting's key follows it. */
const CHANGE_MARK = /^(?:added|removed):\s*/;
const COMMAND_FLAG = /(?:^|\s)--([a-z][a-z0-9-]*)/g;

/** Whether a setting line is keyed by an asked kind and one of the nouns it qualifies ("instance_type", "data_volume › type"). */
export function keysAskedSetting(settingText: string, asked: readonly AskedSettingKey[]): boolean {
  // A command's flags key what they set as well: `bash_command="kdp-looker refresh --datagroup kdp_daily"` sets the datagroup (fresh f215).
  const flags = [...settingText.matchAll(COMMAND_FLAG)].map((match) => match[1]);
  const keyTerms = new Set([...tokenize(settingText.replace(SPACED_SETTING_PLACE, '').replace(CHANGE_MARK, '').replace(SETTING_VALUE, '')), ...flags].flatMap((token) => token.split(/[_.:/-]+/)).map(stem));
  return asked.some((key) => keyTerms.has(key.kind) && [...key.qualifiers].some((term) => keyTerms.has(term)));
}

interface KeyedPiece {
  readonly role: string;
  readonly text: string;
  /** A changed line without the file it is shown with: its key is read from it. */
  readonly scored?: string;
}

/**
 * The settings or changed lines a value-kind question asks for, as a test of a context piece; undefined
 * when the question asks for no value kind or no piece of this context is keyed by one.
 */
export function askedSettingTest<T extends KeyedPiece>(question: string, pieces: readonly T[]): ((piece: T) => boolean) | undefined {
  const asked = askedSettingKeys(question);
  if (asked.length === 0) return undefined;
  const keyed = (piece: T) => (piece.role === 'setting' || piece.role === 'change') && keysAskedSetting(piece.scored ?? piece.text, asked);
  return pieces.some(keyed) ? keyed : undefined;
}

/**
 * "Which counter does eta-api increment …?" is answered by the metric named, in the notation metrics are
 * named in (Prometheus: a base unit or `_total` suffix), which the sentence may state without the noun
 * ("… and counts the answer in `eta_fallback_total`"; freight fresh f177).
 */
const METRIC_HEADS: ReadonlySet<string> = new Set(['counter', 'gaug', 'histogram', 'metric']);
const METRIC_NAME = /^[a-z][a-z0-9]*(?:_[a-z0-9]+)*_(?:total|count|sum|bucket|seconds|bytes|ratio)$/;

/** Whether the question's head nouns ask for a metric ("which counter", "what metric"). */
export const asksMetric = (askedType: ReadonlySet<string> | undefined): boolean => [...(askedType ?? [])].some((head) => METRIC_HEADS.has(head));
/** Whether a sentence's tokens name a metric in its notation ("eta_fallback_total"). */
export const namesMetric = (tokens: ReadonlySet<string>): boolean => [...tokens].some((token) => METRIC_NAME.test(token));

/** Head nouns a path answers: "Which file in kdp-infra defines it?", "which files hold the schema?" */
const FILE_HEADS: ReadonlySet<string> = new Set(['file', 'path', 'folder', 'director']);
/** A path in a repository or on a disk ("terraform/iam-lake-writer.tf", "monitoring/alerts/"), or a file name with its extension ("feature-redis.conf"). */
const FILE_PATH = /^(?:[\w.=-]+\/)+[\w.=-]*$|^[\w-]+\.(?:tf|tfvars|hcl|json|ya?ml|toml|ini|conf|cfg|properties|md|py|sql|sh|ts|js|csv|txt|avsc)$/;
/**
 * Whether a sentence names a file by its path, when the head noun asks for one: a setting or a changed
 * line is shown with its file ("airflow/dags/warehouse_daily_load.py: schedule: …"), a runbook names one
 * ("kept in `kdp-infra/schema-registry/subjects.yaml`").
 */
export const namesAskedPath = (text: string, head: string): boolean => FILE_HEADS.has(head) && tokenize(text).some((token) => /[a-z]/.test(token) && FILE_PATH.test(token));

/** Head nouns an import answers: "Which module does it come from?" */
const MODULE_HEADS: ReadonlySet<string> = new Set(['modul', 'packag', 'librari']);
/** Whether a question (or one part of it) asks for a module by its head noun. */
export const asksModule = (question: string): boolean => [...(askedTypeTerms(question) ?? [])].some((head) => MODULE_HEADS.has(head));
/** An import statement: Python's `from kdp.alerts import …` and `import x.y`, JavaScript's `import … from '…'` and `require('…')`. */
const IMPORT_STATEMENT = /\bfrom\s+[\w.]+\s+import\s|\bimport\s+[^;]*?\bfrom\s+['"]|\brequire\(\s*['"]|(?:^|:\s)import\s+[\w.]+\s*;?\s*$/;
/**
 * Whether a sentence is an import: "which module does the callback come from?" is answered by
 * `from kdp.alerts import slack_on_failure`, which holds no word of the question (freight fresh f334).
 */
export const statesImport = (text: string): boolean => IMPORT_STATEMENT.test(text);

/** "Which change was merged …?" is answered by a change named, not by a verb: "6 replicas changed nothing" names none (freight dev d08). */
export function namesHeadNoun(tokens: ReadonlySet<string>, terms: ReadonlySet<string>, head: string): boolean {
  if (METRIC_HEADS.has(head) && namesMetric(tokens)) return true;
  return CHANGE_HEADS.has(head) ? [...tokens].some((token) => !token.endsWith('ed') && stem(token) === head) : terms.has(head);
}
