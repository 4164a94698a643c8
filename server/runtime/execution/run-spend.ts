/**
 * Spend arithmetic for the run budget (run-budget.ts): cost in USD and model tokens, and what a
 * resumed run had spent before (its recorded node outcomes).
 */
import type { NodeOutcome } from '../contracts/scheduler';
import { modelTokensOf } from '../ir/graph';

export interface Spend {
  readonly costUsd: number;
  readonly tokens: number;
}

export const NO_SPEND: Spend = Object.freeze({ costUsd: 0, tokens: 0 });

export const addSpend = (a: Spend, b: Spend): Spend => ({ costUsd: a.costUsd + b.costUsd, tokens: a.tokens + b.tokens });

export const maxSpend = (a: Spend, b: Spend): Spend => ({ costUsd: Math.max(a.costUsd, b.costUsd), tokens: Math.max(a.tokens, b.tokens) });

/**
 * What the recorded outcomes spent, and the execution time they took: the latest budget snapshot
 * (a resumed run continues the clock where it stopped, without the wait at an approval gate). An
 * outcome recorded before budgets existed has no snapshot: its latency is added instead, an upper
 * bound when nodes ran in parallel.
 */
export function spentBefore(outcomes: ReadonlyMap<string, NodeOutcome>, kindOf: (nodeId: string) => string): { readonly spend: Spend; readonly elapsedSeconds: number } {
  let spend = NO_SPEND;
  let snapshot = 0;
  let unsnapshotted = 0;
  for (const [nodeId, outcome] of outcomes) {
    spend = addSpend(spend, { costUsd: outcome.actual.costUsd, tokens: modelTokensOf(kindOf(nodeId), outcome.actual) });
    if (outcome.budget) snapshot = Math.max(snapshot, outcome.budget.elapsedSeconds);
    else unsnapshotted += outcome.actual.latencySeconds;
  }
  return { spend, elapsedSeconds: snapshot + unsnapshotted };
}
