import { describedSettingWords, describedToolSettings } from '../text/setting-behaviours';

/**
 * A goal asking what something is set to: "what's the memory limit on the eta-api pods?", "What TTL
 * is configured on the vehicle_eta_features view?", "how many partitions does the audit topic have?",
 * "How long does eta-api wait on feature-redis before it gives up?". Such a value often sits in a file
 * nobody changed since an initial import, whose commit chunk kept ~25 tokens of it; the plan then
 * adds a setting lookup over the commits' cut file diffs (execution/setting-lookup.ts).
 */

/** The question asks for a value: what / which / how many, long, much, often … */
const VALUE_QUESTION = /\b(?:what(?:'s|\s+is|\s+are)?|which|how\s+(?:many|much|long|often|big|large|high|low|fast|frequently))\b/i;

/**
 * Words that name a setting or how one is phrased in English: limits, TTLs, timeouts, retries,
 * retention ("how long does it keep"), sizes, schedules, policies, instance and volume types, regions,
 * threads, encryption keys (freight fresh f124, f125), the fields or columns a definition lists (fresh f183),
 * and "configured" / "set to".
 */
const SETTING_WORDS =
  /\b(?:limits?|ttl|timeouts?|retr(?:y|ies)|retention|partitions?|replicas?|compression|codecs?|polic(?:y|ies)|schedules?|memory|cpu|configured|configuration|config|settings?|set\s+(?:to|on|for)|is\s+set|interval|threshold|concurrency|quota|capacity|size|waits?|keeps?|(?:instance|volume|machine|node)\s+types?|region|threads|kms|encrypt(?:s|ed|ion)?|fields|columns)\b/i;

const EVERY_SETTING_WORD = new RegExp(SETTING_WORDS.source, 'gi');

/** Setting words too general to key a setting: any line is "configured", any value "set to". */
const NOT_A_KEY = /^(?:configured|configuration|config|settings?|set\s+(?:to|on|for)|is\s+set|waits?|keeps?)$/i;

/**
 * The words a key setting the asked value holds: the setting words the goal says ("memory", "limit",
 * "retention") and those its described behaviour stands for ("… wait before it retries" → retry, delay).
 */
export function askedSettingTerms(goal: string): readonly string[] {
  const said = [...goal.matchAll(EVERY_SETTING_WORD)].map((match) => match[0].toLowerCase()).filter((word) => !NOT_A_KEY.test(word));
  const counted = configuredCountNoun(goal);
  const which = whichNamedAsks(goal)?.noun;
  return [...new Set([...said, ...describedSettingWords(goal), ...(counted ? [counted] : []), ...(which ? [which] : [])])];
}

/** Asked why, who or when, the answer is a change or an event, not a value a file holds. */
const NOT_A_VALUE = /^\s*(?:why|who|when)\b/i;

/**
 * "How often does Kafka roll a new log segment?", "how often do the sinks close a file?": how often
 * something is done, in the present, is a schedule or an interval a file sets (`segment.ms: 3600000`;
 * fresh f64). In the past ("how often did it fail?") it counts events.
 */
const HOW_OFTEN_DONE = /\bhow (?:often|frequently) (?:does|do|is|are|will|would|should)\b/i;

/**
 * "Is append-only persistence turned on?", "does eta-api autoscale, or is the pod count pinned?": a
 * yes/no question whether something is switched on is answered by the setting that switches it
 * (`appendonly no`, `hpa: enabled: false`; fresh f96, f97). Asked as a question, its verb first: "what
 * happened after the HPA was enabled?" asks for events.
 */
const SWITCHED_ON = /(?:^|[.?!]\s+)(?:is|are|does|do|was|were)\s+([^?.!]*?)\s*\b(?:enabled|disabled|turned (?:on|off)|switched (?:on|off)|pinned|autoscal(?:e|es|ed|ing))\b/i;

/** Whether the goal asks if something is switched on: a setting with an on/off value answers it. */
export const asksWhetherSwitchedOn = (goal: string): boolean => SWITCHED_ON.test(goal);

/** What the goal asks is switched on, as it says it ("append-only (AOF) persistence"); undefined when it asks no such thing. */
export const switchedSubject = (goal: string): string | undefined => SWITCHED_ON.exec(goal)?.[1];

/**
 * "How many tasks does the shipment-events connector run?": how many of something a thing runs, has or
 * uses, in the present, is a count a file sets (`"tasks.max": "2"`; fresh f121). In the past ("how many
 * tasks did it restart?") it counts events.
 */
const HOW_MANY_RUN = /\bhow many ([a-z]+) (?:does|do|will|should) (?:[\w.-]+ ){1,4}(?:run|have|use|get|keep|start)\b/i;

/** The noun a "how many … does it run" goal counts ("tasks"); undefined when it asks no configured count. */
export const configuredCountNoun = (goal: string): string | undefined => HOW_MANY_RUN.exec(goal)?.[1].toLowerCase();

/**
 * "Which Looker datagroup does the refresh_looker_cache task refresh?", "which converters does
 * s3-sink-vehicle-positions use?", "which runbook does the KafkaConnectTaskFailed alert point to?":
 * which of something a named component (a name joined by '-' or '_', or in CamelCase) uses, reads or
 * refreshes, in the present, is what its definition sets (`--datagroup kdp_daily`; fresh f215, f243).
 * The words before the noun may be a dotted key ("Which path.format and locale does the … connector
 * use?", fresh f281). The asked noun keys the setting. Groups: the words before the noun, the noun, the rest.
 */
const WHICH_NAMED_USES = /\b[Ww]hich\s+((?:[A-Za-z][\w.-]*\s+){0,3}?)([A-Za-z]{3,})\s+(?:does|do)\s+((?:the\s+)?(?:[\w.]*[A-Za-z0-9][-_][A-Za-z0-9][\w.-]*|[A-Z][a-z0-9]+(?:[A-Z][a-z0-9]*)+)\s.*)$/;

/** The noun a "which X does <component> …" goal asks, the words said before it and the rest; undefined when it asks no such thing. */
export function whichNamedAsks(goal: string): { readonly modifiers: readonly string[]; readonly noun: string; readonly rest: string } | undefined {
  const match = WHICH_NAMED_USES.exec(goal);
  return match ? { modifiers: match[1].toLowerCase().split(/\s+/).filter(Boolean), noun: match[2].toLowerCase(), rest: match[3].toLowerCase() } : undefined;
}

/** Whether a word is one of the setting words ("partitions", "replicas", "limit"). */
export const isSettingWord = (word: string): boolean => SETTING_WORDS.test(word);

/** Or it describes what a setting does ("after how long does Airflow kill it?", text/setting-behaviours.ts). */
export function asksConfiguredValue(goal: string): boolean {
  if (NOT_A_VALUE.test(goal)) return false;
  // "Will Airflow run the missed days on its own?" asks what a tool's setting holds, however it is put (setting-behaviours.ts TOOL_SETTINGS).
  return SWITCHED_ON.test(goal) || HOW_MANY_RUN.test(goal) || WHICH_NAMED_USES.test(goal) || describedToolSettings(goal).length > 0 || (VALUE_QUESTION.test(goal) && (SETTING_WORDS.test(goal) || HOW_OFTEN_DONE.test(goal) || describedSettingWords(goal).length > 0));
}
