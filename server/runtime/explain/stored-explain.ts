/**
 * The EXPLAIN a run record keeps. The planner's rejected candidates are mostly dominated ones (868
 * of the demo plan's, 410 KB of its 463 KB of JSON), written with every run and read back on each
 * load: bench:loc measured that as the largest share of the runtime's per-run overhead. A stored
 * EXPLAIN keeps the best few of each rule and counts the rest, and says so (`rejectedSummary`).
 */
import type { RejectedCandidate } from '../types';
import type { ExplainResult, RejectedSummary } from './explain-types';
import { DOMINATED_RULE, bestPositions } from '../optimizer/dominated-list';
import { type RejectionParts, rejectedCountOf, rejectionPartsOf } from './rejection-parts';

/**
 * The explain with at most `keptPerRule` rejected candidates of each stage and rule: dominated ones
 * best score first, the others in the planner's order. `null` keeps the whole list; so does a list
 * no rule overflows (nothing to say then).
 */
export function storedExplain(explain: ExplainResult, keptPerRule: number | null): ExplainResult {
  if (keptPerRule === null || explain.rejectedSummary) return explain;
  const parts = rejectionPartsOf(explain);
  const groups = parts ? groupsOfParts(parts) : groupsOf(explain.rejectedCandidates);
  if (groups.every((group) => group.count <= keptPerRule)) return explain;
  const kept: RejectedCandidate[] = [];
  const byRule: RejectedSummary['byRule'][number][] = [];
  for (const group of groups) {
    const shown = group.show(keptPerRule);
    kept.push(...shown);
    byRule.push({ stage: group.stage, rule: group.rule, count: group.count, shown: shown.length });
  }
  const total = parts ? rejectedCountOf(parts) : explain.rejectedCandidates.length;
  return withRejected(explain, kept, { total, shown: kept.length, keptPerRule, byRule });
}

/** One stage and rule's rejected candidates, and which of them a stored EXPLAIN shows. */
interface RuleGroup {
  readonly stage: RejectedCandidate['stage'];
  readonly rule: string;
  readonly count: number;
  /** Dominated ones best score first, the others in the planner's order. */
  show(keptPerRule: number): readonly RejectedCandidate[];
}

/** Grouped by stage, then rule, in first-seen order (a plan rejects ~4,000 candidates: no key string per entry). */
function groupsOf(rejected: readonly RejectedCandidate[]): RuleGroup[] {
  const lists: RejectedCandidate[][] = [];
  const byStage = new Map<string, Map<string, RejectedCandidate[]>>();
  for (const entry of rejected) {
    let rules = byStage.get(entry.stage);
    if (!rules) byStage.set(entry.stage, (rules = new Map()));
    const list = rules.get(entry.rule);
    if (list) list.push(entry);
    else {
      const created = [entry];
      rules.set(entry.rule, created);
      lists.push(created);
    }
  }
  return lists.map((list) => ({
    stage: list[0].stage,
    rule: list[0].rule,
    count: list.length,
    show: (keptPerRule) => (list.some((entry) => entry.score !== undefined) ? bestScored(list, keptPerRule) : list.slice(0, keptPerRule)),
  }));
}

/**
 * The generator's groups are computed once per cut list (frozen and shared by every goal of one
 * generation key); the dominated ones form one more group, whose best are read without building the rest.
 */
const generatedGroups = new WeakMap<readonly RejectedCandidate[], RuleGroup[]>();

function groupsOfParts(parts: RejectionParts): RuleGroup[] {
  let groups = generatedGroups.get(parts.generated);
  if (!groups) generatedGroups.set(parts.generated, (groups = groupsOf(parts.generated)));
  const dominated = parts.dominated;
  if (!dominated || dominated.count === 0) return groups;
  return [...groups, { stage: 'dominated', rule: DOMINATED_RULE, count: dominated.count, show: (keptPerRule) => dominated.best(keptPerRule) }];
}

/** The explain with these rejected candidates, its other fields as they are: a lazily listed `rejectedCandidates` is not read. */
function withRejected(explain: ExplainResult, kept: readonly RejectedCandidate[], rejectedSummary: RejectedSummary): ExplainResult {
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(explain)) copy[key] = key === 'rejectedCandidates' ? kept : explain[key as keyof ExplainResult];
  copy.rejectedSummary = rejectedSummary;
  return copy as unknown as ExplainResult;
}

/** How many candidates the planner rejected, without listing them. */
export function rejectedCount(explain: ExplainResult): number {
  if (explain.rejectedSummary) return explain.rejectedSummary.total;
  const parts = rejectionPartsOf(explain);
  return parts ? rejectedCountOf(parts) : explain.rejectedCandidates.length;
}

/** The `count` best by score, ties in list order (a stable sort by score, then a slice). */
const bestScored = (group: readonly RejectedCandidate[], count: number): RejectedCandidate[] =>
  bestPositions(group.length, (position) => group[position].score ?? -Infinity, count).map((position) => group[position]);

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
