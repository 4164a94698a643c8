import { describedSettingWords } from '../text/setting-behaviours';

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
 * retention ("how long does it keep"), sizes, schedules, policies, and "configured" / "set to".
 */
const SETTING_WORDS =
  /\b(?:limits?|ttl|timeouts?|retr(?:y|ies)|retention|partitions?|replicas?|compression|polic(?:y|ies)|schedules?|memory|cpu|configured|configuration|config|settings?|set\s+(?:to|on|for)|is\s+set|interval|threshold|concurrency|quota|capacity|size|waits?|keeps?)\b/i;

/** Asked why, who or when, the answer is a change or an event, not a value a file holds. */
const NOT_A_VALUE = /^\s*(?:why|who|when)\b/i;

/** Or it describes what a setting does ("after how long does Airflow kill it?", text/setting-behaviours.ts). */
export function asksConfiguredValue(goal: string): boolean {
  return !NOT_A_VALUE.test(goal) && VALUE_QUESTION.test(goal) && (SETTING_WORDS.test(goal) || describedSettingWords(goal).length > 0);
}
