/**
 * What a question describes a setting doing, for the setting it names none of: "How long does eta-api
 * wait on feature-redis before it gives up?" asks for a timeout (`FEATURE_FETCH_TIMEOUT_MS: "40"`),
 * "after how long does Airflow kill it?" for `execution_timeout`, "how long does it wait between
 * tries?" (or "between them", or "before it retries") for `retry_delay`, "how long do the brokers keep …" for a retention or
 * a TTL. Read only in a "how long" clause, which asks for the duration such a setting holds. The
 * setting lookup adds the kinds to its query (execution/setting-lookup.ts); the extractive reader asks
 * for a key holding one (adapters/models/extractive-answer-type.ts).
 */
export interface SettingBehaviour {
  readonly says: RegExp;
  /** Words of the keys that configure it: one of them is in the key. */
  readonly kinds: readonly string[];
  /** Words the key holds besides the kind, which the clause does not say ("tries" → retry_delay). */
  readonly names: readonly string[];
}

export const SETTING_BEHAVIOURS: readonly SettingBehaviour[] = [
  { says: /\bwait(?:s|ing)?\b.*\b(?:gives?|giving) up\b|\btimes? out\b|\bkill(?:s|ed)?\b/, kinds: ['timeout'], names: [] },
  // "… wait before it retries?", "… pause between attempts?": the delay before the next try.
  { says: /\b(?:wait(?:s|ing)?|pauses?|sleeps?)\b(?: \w+)* (?:between (?:tries|attempts|retries|them)|before (?:it |they )?(?:retr(?:y|ies|ying)|tr(?:y|ies|ying) again))\b/, kinds: ['delay', 'interval'], names: ['retry'] },
  { says: /\b(?:keeps?|kept|holds?|retains?|lives?|stays? valid)\b/, kinds: ['retention', 'ttl'], names: [] },
  // "… have to sit in FAILED before the pager goes off?": how long a condition holds before its alert
  // fires, an alert rule's `for: 10m` (Prometheus), which no sentence of the question's words states (fresh f67).
  { says: /\bbefore (?:the |an? |it |we )?(?:pager|page|alert|alarm|on-call)s? (?:goes off|go off|fires?|triggers?|pages?|gets? paged)\b|\bbefore (?:it|we|anyone|someone|the on-call) (?:gets? |is )?(?:paged|alerted)\b/, kinds: ['for'], names: ['alert'] },
];

const HOW_LONG_CLAUSE = /\bhow long\b([^?;]*)/;

/** The goal's "how long" clause, lower-cased, and the behaviours it describes; none without one. */
export function describedSettings(goal: string): { readonly clause: string; readonly behaviours: readonly SettingBehaviour[] } {
  const clause = HOW_LONG_CLAUSE.exec(goal.toLowerCase())?.[1] ?? '';
  return { clause, behaviours: clause === '' ? [] : SETTING_BEHAVIOURS.filter(({ says }) => says.test(clause)) };
}

/** The setting words a goal's described behaviours stand for: "… wait … before it gives up" → timeout, "run the missed days" → catchup. */
export function describedSettingWords(goal: string): readonly string[] {
  return [...new Set([...describedSettings(goal).behaviours, ...describedToolSettings(goal)].flatMap(({ kinds, names }) => [...names, ...kinds]))];
}

/**
 * Settings well-known tools name by what they do, which operators ask about in those words and not the
 * key's, in any clause: whether a scheduler runs the intervals it missed (Airflow `catchup`), whether
 * two runs may overlap (`max_active_runs`), where a server takes its password (Redis `requirepass`),
 * whether a service autoscales (Helm `hpa`), what an alert rule evaluates (Prometheus `expr`), whether a
 * consumer skips a record it cannot write (Kafka Connect `errors.tolerance`), where it starts when its
 * offset is gone (`auto.offset.reset`). A key holds the kind; the goal's named things qualify it.
 */
export const TOOL_SETTINGS: readonly SettingBehaviour[] = [
  { says: /\b(?:missed|skipped)\s+(?:days?|runs?|intervals?|dates?)\b|\bcatch(?:es|ing)?\s+up\s+on\b/, kinds: ['catchup'], names: [] },
  // Or asked as a second run started beside one still going (fresh f245).
  { says: /\bruns?\b[^?]*\b(?:overlap|at the same time|in parallel|concurrently)\b|\bsecond\s+(?:one|run|copy|instance)\b[^?]*\b(?:next to|alongside|beside|at once)\b|\bstill\s+(?:going|running)\b[^?]*\bsecond\s+(?:one|run)\b/, kinds: ['active', 'concurrency'], names: ['max', 'run'] },
  { says: /\bpassword\b/, kinds: ['requirepass', 'password'], names: [] },
  // Whether a service scales its pods on load: a Helm chart's `hpa: enabled` or `autoscaling: enabled` (fresh f96).
  { says: /\bauto-?scal(?:e|es|ed|ing)\b|\bscal(?:e|es|ed|ing)\b[^?]*\bon (?:its own|load)\b/, kinds: ['hpa', 'autoscaling'], names: [] },
  { says: /\bwhat (?:metric|expression|query)\b[^?]*\brule\b|\brule\b[^?]*\bevaluat(?:e|es|ed|ing)\b/, kinds: ['expr'], names: ['alert'] },
  // Whether a consumer skips a record it cannot handle or fails (Kafka Connect `errors.tolerance`; fresh f181).
  { says: /\bskip(?:s|ped|ping)?\b[^?]*\b(?:records?|messages?|events?)\b|\b(?:records?|messages?)\b[^?]*\bskip(?:s|ped|ping)?\b|\b(?:bad|broken|poison|malformed)\s+(?:records?|messages?)\b/, kinds: ['tolerance'], names: ['errors'] },
  // Where a consumer starts when its committed offset is gone (Kafka `auto.offset.reset`; fresh f185).
  { says: /\bwhere\b[^?]*\bconsumers?\b[^?]*\bstarts?\b|\boffsets?\b[^?]*\b(?:no longer|gone|out of range|missing|deleted)\b/, kinds: ['reset'], names: ['offset'] },
];

/** The tool settings a goal describes, anywhere in it. */
export const describedToolSettings = (goal: string): readonly SettingBehaviour[] => {
  const lower = goal.toLowerCase();
  return TOOL_SETTINGS.filter(({ says }) => says.test(lower));
};
