/**
 * The typed errors a run budget raises (run-budget.ts): BUDGET_EXCEEDED with `field` naming the
 * constraint, so the caller reads which limit stopped the run and by how much, and the run record's
 * error names it too. The caller's limit, not the runtime, stopped the work: a user-error kind, so
 * the scheduler never retries it and the router never climbs past it.
 */
import { ContextRuntimeError } from '../errors';

export type BudgetConstraint = 'max_cost_usd' | 'max_tokens' | 'max_latency_seconds';

/** A model call's worst case, priced before it starts. */
export interface WorstCase {
  readonly costUsd: number;
  readonly tokens: number;
  readonly promptTokens: number;
  readonly maxOutputTokens: number;
}

const usd = (value: number) => `$${value.toFixed(6)}`;

/** A call whose worst case, added to what the run spent and reserved, would cross a limit. */
export function callRefused(constraint: Exclude<BudgetConstraint, 'max_latency_seconds'>, limit: number, committed: number, call: { readonly nodeId: string; readonly tier: string; readonly worst: WorstCase }): ContextRuntimeError {
  const money = constraint === 'max_cost_usd';
  const worst = money ? call.worst.costUsd : call.worst.tokens;
  const show = (value: number) => (money ? usd(value) : `${value} tokens`);
  return new ContextRuntimeError(
    'BUDGET_EXCEEDED',
    `${constraint}: the call to model tier "${call.tier}" at node ${call.nodeId} was refused before it started: it could use up to ${show(worst)} (${call.worst.promptTokens} prompt + ${call.worst.maxOutputTokens} output tokens) and the run has spent or reserved ${show(committed)} of its ${show(limit)} limit`,
    { field: `constraints.${constraint}`, details: { constraint, limit, committed, worstCase: worst, nodeId: call.nodeId, tier: call.tier } },
  );
}

/** The run's deadline passed: before `nodeId` started, or while it ran (its calls aborted). */
export function deadlinePassed(limitSeconds: number, elapsedSeconds: number, nodeId: string, when: 'before' | 'during'): ContextRuntimeError {
  const what = when === 'before' ? `before node ${nodeId} started` : `while node ${nodeId} ran; its calls were aborted`;
  return new ContextRuntimeError('BUDGET_EXCEEDED', `max_latency_seconds: the run's ${limitSeconds} s deadline passed ${what} (${elapsedSeconds.toFixed(3)} s elapsed)`, {
    field: 'constraints.max_latency_seconds',
    details: { constraint: 'max_latency_seconds', limit: limitSeconds, elapsedSeconds, nodeId },
  });
}
