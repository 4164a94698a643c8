/**
 * The run's budget as EXPLAIN ANALYZE shows it beside each node: cost, model tokens and execution
 * time spent by the run once that node finished, each against the request's limit when it set one
 * (execution/run-budget.ts enforces them). Shared by the text tree and the UI's graph table.
 */
import type { RunSpendSnapshot } from '../contracts/scheduler';
import type { Constraints } from '../types';

export type BudgetLimitsShown = Pick<Constraints, 'max_cost_usd' | 'max_tokens' | 'max_latency_seconds'>;

export interface BudgetFigure {
  readonly metric: 'cost' | 'tokens' | 'time';
  readonly used: number;
  readonly limit?: number;
  /** used / limit, when there is a limit (0 for a zero limit nothing was spent against). */
  readonly share?: number;
  readonly text: string;
}

const usd = (value: number) => `$${value.toFixed(6)}`;
const secs = (value: number) => `${value < 10 ? value.toFixed(3) : value.toFixed(1)} s`;
const count = (value: number) => `${Math.round(value)}`;

function figure(metric: BudgetFigure['metric'], used: number, limit: number | undefined, format: (value: number) => string): BudgetFigure {
  if (limit === undefined) return { metric, used, text: `${metric} ${format(used)}` };
  const share = limit > 0 ? used / limit : used > 0 ? Number.POSITIVE_INFINITY : 0;
  const percent = Number.isFinite(share) ? `${Math.round(share * 100)}%` : 'over';
  return { metric, used, limit, share, text: `${metric} ${format(used)} of ${format(limit)} (${percent})` };
}

export function budgetFigures(spent: RunSpendSnapshot, limits: BudgetLimitsShown = {}): readonly BudgetFigure[] {
  return [
    figure('cost', spent.costUsd, limits.max_cost_usd, usd),
    figure('tokens', spent.tokens, limits.max_tokens, count),
    figure('time', spent.elapsedSeconds, limits.max_latency_seconds, secs),
  ];
}

/** "cost $0.000120 of $0.000500 (24%) · tokens 320 · time 0.410 s of 5.000 s (8%)". */
export function budgetUsedText(spent: RunSpendSnapshot, limits: BudgetLimitsShown = {}): string {
  return budgetFigures(spent, limits).map((entry) => entry.text).join(' · ');
}

/** The request's run-time limits, absent when it set none. */
export function budgetLimitsShown(constraints: Constraints): BudgetLimitsShown | undefined {
  const limits: BudgetLimitsShown = {
    ...(constraints.max_cost_usd !== undefined ? { max_cost_usd: constraints.max_cost_usd } : {}),
    ...(constraints.max_tokens !== undefined ? { max_tokens: constraints.max_tokens } : {}),
    ...(constraints.max_latency_seconds !== undefined ? { max_latency_seconds: constraints.max_latency_seconds } : {}),
  };
  return Object.keys(limits).length > 0 ? limits : undefined;
}
