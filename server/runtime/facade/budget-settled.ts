/**
 * How a run that its budget stopped ends. The budget refuses a model call, or its deadline aborts a
 * node, and the scheduler reports that node failed. When the plan's answer was already produced
 * (the refused work came after it: a verification, a later hop), the run completes with that
 * answer and a caveat naming the limit, since discarding an answer already paid for would spend
 * the budget for nothing. Without an answer, the run fails with the refusal, which names the limit.
 */
import type { NodeOutcome, ScheduleResult } from '../contracts/scheduler';
import type { RunBudget } from '../execution/run-budget';
import type { ExecutionGraph } from '../ir/graph';
import { answerNodeOf } from '../ir/node-outputs';

/** A schedule result, where a budget stop after the answer became a completion with its caveat. */
export type BudgetSettled = Exclude<ScheduleResult, { status: 'completed' }> | { readonly status: 'completed'; readonly outcomes: ReadonlyMap<string, NodeOutcome>; readonly budgetCaveat?: string };

export function budgetSettled(result: ScheduleResult, budget: RunBudget, graph: ExecutionGraph): BudgetSettled {
  const refusal = result.status === 'failed' ? budget.refusalOf(result.error) : undefined;
  if (result.status !== 'failed' || !refusal) return result;
  const answer = answerNodeOf(graph);
  if (!answer || !result.outcomes.has(answer.id)) return result;
  return { status: 'completed', outcomes: result.outcomes, budgetCaveat: `The run's budget stopped it after the answer: ${refusal.message}. Node ${result.nodeId} and the steps after it did not run.` };
}
