/**
 * A run's budget at run time (issue 15, point 5): running totals of cost, model tokens and elapsed
 * time, checked against the request's `max_cost_usd`, `max_tokens` and `max_latency_seconds`.
 *
 * - Every model call (the first tier and each fallback, through the router's `admit`) is priced at
 *   its worst case before it starts: prompt tokens (known) + the request's max output tokens, at
 *   the tier's prices. It is refused when what the run spent, plus what calls in flight reserved at
 *   their worst, plus this worst case would cross a limit. Reserving the worst case is what lets
 *   parallel nodes share one cap without overrunning it; an answered call then books its usage.
 * - A call that timed out or was aborted books its prompt tokens and their input price: the
 *   provider may have billed it, and an unknown charge must not let a fallback cross the cap. A
 *   call the provider refused (an error status) books nothing.
 * - `max_latency_seconds` is the run's deadline, counted over execution (time waiting at an
 *   approval gate is not): a node starts only before it, and at it the node's signal aborts, which
 *   reaches the AI SDK call and the retrievers; the node fails at once with the typed reason.
 *
 * Each completed node's outcome carries the run's totals after it (`NodeOutcome.budget`), which is
 * what EXPLAIN ANALYZE shows per node and what a resumed run starts from.
 */
import type { CallAdmission } from '../contracts/router';
import type { NodeOutcome } from '../contracts/scheduler';
import { modelTokensOf, type GraphNode } from '../ir/graph';
import type { Constraints } from '../types';
import { callRefused, deadlinePassed, type WorstCase } from './budget-refusal';
import { type Spend, NO_SPEND, addSpend, maxSpend, spentBefore } from './run-spend';

/**
 * How long a node past the deadline waits for its aborted work to settle before it fails: the
 * acceptance bound is 100 ms past the limit (bench:budget), and the run's settle writes follow.
 */
export const DEADLINE_SETTLE_MS = 50;

export interface BudgetLimits {
  readonly maxCostUsd?: number;
  readonly maxTokens?: number;
  readonly maxLatencySeconds?: number;
}

export const budgetLimitsOf = (constraints: Constraints): BudgetLimits => ({
  ...(constraints.max_cost_usd !== undefined ? { maxCostUsd: constraints.max_cost_usd } : {}),
  ...(constraints.max_tokens !== undefined ? { maxTokens: constraints.max_tokens } : {}),
  ...(constraints.max_latency_seconds !== undefined ? { maxLatencySeconds: constraints.max_latency_seconds } : {}),
});

/** What the run's work does with the node's signal and the admission its model calls go through. */
export type BudgetedWork = (signal: AbortSignal, admit: CallAdmission) => Promise<NodeOutcome>;

export class RunBudget {
  private completed: Spend;
  /** Calls that ended, by the node attempt still running that made them. */
  private readonly open = new Map<string, Spend>();
  private reserved: Spend = NO_SPEND;
  private startedAt: number;
  private readonly elapsedBefore: number;
  /** The refusals this budget raised (a refused rerank batch need not stop the run): settle reads why a run stopped. */
  readonly refusals: Error[] = [];

  constructor(
    readonly limits: BudgetLimits,
    prior: { readonly outcomes: ReadonlyMap<string, NodeOutcome>; readonly kindOf: (nodeId: string) => string } = { outcomes: new Map(), kindOf: () => '' },
    private readonly clock: () => number = () => performance.now(),
  ) {
    const before = spentBefore(prior.outcomes, prior.kindOf);
    this.completed = before.spend;
    this.elapsedBefore = before.elapsedSeconds;
    this.startedAt = clock();
  }

  /** Starts the run's clock now: the moment the scheduler starts its nodes (the run span starts with it). */
  begin(): void {
    this.startedAt = this.clock();
  }

  elapsedSeconds(): number {
    return this.elapsedBefore + (this.clock() - this.startedAt) / 1000;
  }

  /** Spent by ended calls and finished nodes, plus the worst cases of calls in flight. */
  committed(): Spend {
    return [...this.open.values()].reduce(addSpend, addSpend(this.completed, this.reserved));
  }

  private remainingMs(): number {
    const limit = this.limits.maxLatencySeconds;
    return limit === undefined ? Number.POSITIVE_INFINITY : (limit - this.elapsedSeconds()) * 1000;
  }

  private refuse(error: Error): Error {
    this.refusals.push(error);
    return error;
  }

  /** The refusal a failed node reported, when its failure was one. */
  refusalOf(message: string): Error | undefined {
    return this.refusals.find((refusal) => refusal.message === message);
  }

  /** The router asks this before each tier's call of node `nodeId`. */
  admission(nodeId: string): CallAdmission {
    return (call) => {
      const { inputUsdPerMillion, outputUsdPerMillion } = call.prices;
      const worst: WorstCase = {
        promptTokens: call.promptTokens,
        maxOutputTokens: call.maxOutputTokens,
        tokens: call.promptTokens + call.maxOutputTokens,
        costUsd: (call.promptTokens * inputUsdPerMillion + call.maxOutputTokens * outputUsdPerMillion) / 1_000_000,
      };
      const committed = this.committed();
      const named = { nodeId, tier: call.tier, worst };
      if (this.limits.maxCostUsd !== undefined && committed.costUsd + worst.costUsd > this.limits.maxCostUsd) throw this.refuse(callRefused('max_cost_usd', this.limits.maxCostUsd, committed.costUsd, named));
      if (this.limits.maxTokens !== undefined && committed.tokens + worst.tokens > this.limits.maxTokens) throw this.refuse(callRefused('max_tokens', this.limits.maxTokens, committed.tokens, named));
      this.reserved = addSpend(this.reserved, { costUsd: worst.costUsd, tokens: worst.tokens });
      return (ended) => {
        this.reserved = addSpend(this.reserved, { costUsd: -worst.costUsd, tokens: -worst.tokens });
        const charge =
          'usage' in ended
            ? { costUsd: ended.costUsd, tokens: ended.usage.inputTokens + ended.usage.outputTokens }
            : ended.failed === 'abandoned'
              ? { costUsd: (call.promptTokens * inputUsdPerMillion) / 1_000_000, tokens: call.promptTokens }
              : NO_SPEND;
        this.open.set(nodeId, addSpend(this.open.get(nodeId) ?? NO_SPEND, charge));
      };
    };
  }

  /**
   * Runs one node attempt under the run's deadline and books what it spent: its actuals when it
   * completed (or what its calls booked, if more), its calls' charges when it failed.
   */
  async runNode(node: GraphNode, signal: AbortSignal, work: BudgetedWork): Promise<NodeOutcome> {
    const remainingMs = this.remainingMs();
    if (remainingMs <= 0) throw this.refuse(deadlinePassed(this.limits.maxLatencySeconds!, this.elapsedSeconds(), node.id, 'before'));
    const controller = new AbortController();
    const onParentAbort = () => controller.abort(signal.reason);
    if (signal.aborted) onParentAbort();
    else signal.addEventListener('abort', onParentAbort, { once: true });
    let deadline: Error | undefined;
    const aborted = new Promise<never>((_, reject) => controller.signal.addEventListener('abort', () => reject(controller.signal.reason), { once: true }));
    aborted.catch(() => undefined);
    const timer = Number.isFinite(remainingMs)
      ? setTimeout(() => {
          deadline = this.refuse(deadlinePassed(this.limits.maxLatencySeconds!, this.elapsedSeconds(), node.id, 'during'));
          controller.abort(deadline);
        }, remainingMs)
      : undefined;
    const execution = work(controller.signal, this.admission(node.id));
    // Its late failure after an abort (the race already settled) is expected, not unhandled.
    execution.catch(() => undefined);
    try {
      const outcome = await Promise.race([execution, aborted]);
      const booked = this.open.get(node.id) ?? NO_SPEND;
      this.completed = addSpend(this.completed, maxSpend(booked, { costUsd: outcome.actual.costUsd, tokens: modelTokensOf(node.kind, outcome.actual) }));
      this.open.delete(node.id);
      const totals = this.completed;
      return { ...outcome, budget: { costUsd: totals.costUsd, tokens: totals.tokens, elapsedSeconds: this.elapsedSeconds() } };
    } catch (error) {
      // The aborted call usually settles (its connection closed) within milliseconds; the run's
      // end waits that long for it, never longer than DEADLINE_SETTLE_MS past the deadline.
      if (deadline) await Promise.race([execution.catch(() => undefined), new Promise((resolve) => setTimeout(resolve, DEADLINE_SETTLE_MS).unref?.())]);
      this.completed = addSpend(this.completed, this.open.get(node.id) ?? NO_SPEND);
      this.open.delete(node.id);
      throw deadline ?? error;
    } finally {
      if (timer) clearTimeout(timer);
      signal.removeEventListener('abort', onParentAbort);
    }
  }
}
