import type { TokenBudget } from '@/server/runtime/explain/explain-types';

type SourceSpend = NonNullable<TokenBudget['bySource']>[number];
type DroppedChunk = NonNullable<TokenBudget['dropped']>[number];

export interface BudgetSpend {
  readonly bySource: readonly SourceSpend[];
  /** Tokens that went into the context, summed over sources. */
  readonly used: number;
  /** The bar's full width: the budget, or the spend if it ran over (never 0). */
  readonly whole: number;
  readonly dropped: readonly DroppedChunk[];
  /** Dropped chunks grouped by why, in first-seen order: count and tokens. */
  readonly droppedWhy: readonly { readonly why: string; readonly count: number; readonly tokens: number }[];
}

/** The figures the token budget view draws, from a budget whose by-source and dropped parts may be absent. */
export function budgetSpend(budget: TokenBudget): BudgetSpend {
  const bySource = budget.bySource ?? [];
  const used = bySource.reduce((sum, entry) => sum + entry.tokens, 0);
  const dropped = budget.dropped ?? [];
  const groups = new Map<string, { count: number; tokens: number }>();
  for (const entry of dropped) {
    const seen = groups.get(entry.why) ?? { count: 0, tokens: 0 };
    groups.set(entry.why, { count: seen.count + 1, tokens: seen.tokens + entry.tokens });
  }
  return { bySource, used, whole: Math.max(budget.budget, used, 1), dropped, droppedWhy: [...groups].map(([why, group]) => ({ why, ...group })) };
}

/** A share as a whole percentage, or a dash when there is nothing to share. */
export function formatShare(part: number, whole: number): string {
  return whole > 0 ? `${((part / whole) * 100).toFixed(0)}%` : '—';
}

const SOURCE_HUES = [212, 145, 28, 262, 350, 185, 95];

/** The colour of the n-th source, the same in the bar and beside its row. */
export function sourceColour(index: number): string {
  return `hsl(${SOURCE_HUES[index % SOURCE_HUES.length]} 60% 62%)`;
}
