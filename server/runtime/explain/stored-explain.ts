/**
 * The EXPLAIN a run record keeps. The planner's rejected candidates are mostly dominated ones (868
 * of the demo plan's, 410 KB of its 463 KB of JSON), written with every run and read back on each
 * load: bench:loc measured that as the largest share of the runtime's per-run overhead. A stored
 * EXPLAIN keeps the best few of each rule and counts the rest, and says so (`rejectedSummary`).
 */
import type { RejectedCandidate } from '../types';
import type { ExplainResult, RejectedSummary } from './explain-types';

/**
 * The explain with at most `keptPerRule` rejected candidates of each stage and rule: dominated ones
 * best score first, the others in the planner's order. `null` keeps the whole list; so does a list
 * no rule overflows (nothing to say then).
 */
export function storedExplain(explain: ExplainResult, keptPerRule: number | null): ExplainResult {
  if (keptPerRule === null || explain.rejectedSummary) return explain;
  // Grouped by stage, then rule, in first-seen order (a plan rejects ~4,000 candidates: no key string per entry).
  const groups: RejectedCandidate[][] = [];
  const byStage = new Map<string, Map<string, RejectedCandidate[]>>();
  for (const rejected of explain.rejectedCandidates) {
    let rules = byStage.get(rejected.stage);
    if (!rules) byStage.set(rejected.stage, (rules = new Map()));
    const group = rules.get(rejected.rule);
    if (group) group.push(rejected);
    else {
      const created = [rejected];
      rules.set(rejected.rule, created);
      groups.push(created);
    }
  }
  if (groups.every((group) => group.length <= keptPerRule)) return explain;
  const kept: RejectedCandidate[] = [];
  const byRule: RejectedSummary['byRule'][number][] = [];
  for (const group of groups) {
    const shown = group.some((entry) => entry.score !== undefined) ? bestScored(group, keptPerRule) : group.slice(0, keptPerRule);
    kept.push(...shown);
    byRule.push({ stage: group[0].stage, rule: group[0].rule, count: group.length, shown: shown.length });
  }
  return { ...explain, rejectedCandidates: kept, rejectedSummary: { total: explain.rejectedCandidates.length, shown: kept.length, keptPerRule, byRule } };
}

/**
 * The `count` best by score, ties in list order: what a stable sort by score then a slice gives,
 * without sorting the ~700 dominated candidates of a plan to keep twenty (storedExplain runs on every plan).
 */
function bestScored(group: readonly RejectedCandidate[], count: number): RejectedCandidate[] {
  const best: RejectedCandidate[] = [];
  const scoreOf = (entry: RejectedCandidate) => entry.score ?? -Infinity;
  for (const entry of group) {
    const score = scoreOf(entry);
    if (best.length === count && !(score > scoreOf(best[count - 1]))) continue;
    // After every kept entry scoring at least as much: an equal score keeps its earlier place, as a stable sort would.
    let position = best.length;
    while (position > 0 && scoreOf(best[position - 1]) < score) position--;
    best.splice(position, 0, entry);
    if (best.length > count) best.pop();
  }
  return best;
}

/** How many the planner rejected of each stage (dominated, rule…), from the summary when the list is partial. */
export function rejectedCountsByStage(explain: ExplainResult): ReadonlyMap<RejectedCandidate['stage'], number> {
  const counts = new Map<RejectedCandidate['stage'], number>();
  const entries = explain.rejectedSummary?.byRule ?? explain.rejectedCandidates.map((rejected) => ({ stage: rejected.stage, count: 1 }));
  for (const entry of entries) counts.set(entry.stage, (counts.get(entry.stage) ?? 0) + entry.count);
  return counts;
}

/** "868 rejected; showing the best 20 of each rule (26 in all)", or undefined when the list is whole. */
export function rejectedTruncationNote(explain: Pick<ExplainResult, 'rejectedSummary'>): string | undefined {
  const summary = explain.rejectedSummary;
  if (!summary || summary.shown >= summary.total) return undefined;
  return `${summary.total} rejected; showing the best ${summary.keptPerRule} of each rule (${summary.shown} in all)`;
}
