import type { Contradiction } from '../contracts/knowledge';

/**
 * "256Mi (demo-events, demo-git) vs 512Mi (demo-docs)": each value with the sources that state it,
 * in the order the values were found. One wording for the answer's caveat, the EXPLAIN tree and
 * the console's EXPLAIN table, so an operator can match them up.
 */
export function valuesWithSources(contradiction: Contradiction): string {
  const sourcesByValue = new Map<string, Set<string>>();
  for (const { value, sourceName } of contradiction.values) sourcesByValue.set(value, (sourcesByValue.get(value) ?? new Set()).add(sourceName));
  return [...sourcesByValue].map(([value, sources]) => `${value} (${[...sources].join(', ')})`).join(' vs ');
}
