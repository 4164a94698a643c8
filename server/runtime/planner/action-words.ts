/**
 * Word-level readings shared by the action-request reader and the asked-clause rules: whether a word
 * is an action verb (in any inflection or with a hyphenated prefix), where the verb starts after
 * politeness fillers, and which words open a noun phrase.
 */
import type { GoalToken } from './goal-tokens';
import { ACTION_VERBS, FILLERS } from './risk-lexicon';

/** Words that open a noun phrase: a verb-shaped word before one has an object. */
export const DETERMINERS: ReadonlySet<string> = new Set(['the', 'a', 'an', 'all', 'these', 'those', 'this', 'that', 'my', 'our', 'its', 'their', 'each', 'every', 'any']);

/** "re-create", "re-drive", "force-renew": an action verb with a hyphenated prefix is the same action. */
export function prefixedAction(word: string): string | undefined {
  const prefixed = /^(re|force)-([a-z]+)$/.exec(word);
  if (!prefixed) return undefined;
  const joined = `${prefixed[1]}${prefixed[2]}`;
  return ACTION_VERBS.has(joined) ? joined : ACTION_VERBS.has(prefixed[2]) ? prefixed[2] : undefined;
}

/** The base form when `word` is an action verb or one of its inflections ("rotated", "dropping", "deletion"). */
export function actionStem(word: string): string | undefined {
  if (ACTION_VERBS.has(word)) return word;
  const prefixed = prefixedAction(word);
  if (prefixed) return prefixed;
  for (const suffix of ['ing', 'ed', 'ion', 'es', 's']) {
    if (!word.endsWith(suffix) || word.length <= suffix.length + 2) continue;
    const base = word.slice(0, -suffix.length);
    const undoubled = base.length > 2 && base[base.length - 1] === base[base.length - 2] ? base.slice(0, -1) : base;
    for (const candidate of [base, `${base}e`, undoubled]) if (ACTION_VERBS.has(candidate)) return candidate;
  }
  return undefined;
}

/** The index of the first word after politeness and command fillers ("please", "go ahead and", "kubectl"). */
export function skipFillers(sentence: readonly GoalToken[], index: number): number {
  while (index < sentence.length) {
    const lower = sentence[index].lower;
    if (lower === 'go' && sentence[index + 1]?.lower === 'ahead') index++;
    else if (FILLERS.has(lower)) index++;
    else break;
  }
  return index;
}
