import { describe, expect, it } from 'vitest';
import type { TierInfo } from '../contracts/router';
import type { NodeOutcome } from '../contracts/scheduler';
import type { GraphNode } from '../ir/graph';
import { isContextRuntimeError } from '../errors';
import { budgetLimitsOf, DEADLINE_SETTLE_MS, RunBudget } from './run-budget';

/** $10 per million input tokens, $30 per million output tokens. */
const TIER: TierInfo = {
  name: 'priced',
  rank: 0,
  available: true,
  capabilities: { provider: 'openai-compatible', modelId: 'm', contextWindow: 8_000, inputUsdPerMillion: 10, outputUsdPerMillion: 30, local: false, firstTokenSeconds: 0.2, secondsPerOutputToken: 0.01, qualityPrior: 0.8, maxOutputTokens: 1_000 },
};
const call = (promptTokens: number, maxOutputTokens: number) => ({ tier: TIER.name, prices: TIER.capabilities, promptTokens, maxOutputTokens });
const used = (inputTokens: number, outputTokens: number) => ({ usage: { inputTokens, outputTokens }, costUsd: (inputTokens * 10 + outputTokens * 30) / 1_000_000 });
const REASON = { id: 'reason', kind: 'reason', inputs: [] } as unknown as GraphNode;
const RETRIEVE = { id: 'retrieve', kind: 'retrieve', inputs: [] } as unknown as GraphNode;
const outcome = (costUsd: number, tokens: number): NodeOutcome => ({ output: {}, actual: { tokens, costUsd, latencySeconds: 0.01 } });

function refusalOf(action: () => unknown): { code: string; field?: string; message: string } {
  try {
    action();
  } catch (error) {
    if (isContextRuntimeError(error)) return error;
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('a model call is priced at its worst case before it starts', () => {
  it('admits a call whose worst case fits, and refuses one that would cross max_cost_usd, naming the limit', () => {
    // Worst case of call(1000, 500): 1000 × $10/M + 500 × $30/M = $0.025.
    const budget = new RunBudget({ maxCostUsd: 0.035 });
    const ended = budget.admission('reason')(call(1_000, 500));
    ended(used(1_000, 100));
    expect(budget.committed().costUsd).toBeCloseTo(0.013, 12);
    const refusal = refusalOf(() => budget.admission('reason')(call(1_000, 500)));
    expect(refusal).toMatchObject({ code: 'BUDGET_EXCEEDED', field: 'constraints.max_cost_usd' });
    expect(refusal.message).toBe('max_cost_usd: the call to model tier "priced" at node reason was refused before it started: it could use up to $0.025000 (1000 prompt + 500 output tokens) and the run has spent or reserved $0.013000 of its $0.035000 limit');
    expect(budget.refusalOf(refusal.message)).toBe(refusal);
  });

  it('refuses on max_tokens with prompt + max output tokens as the worst case', () => {
    const budget = new RunBudget({ maxTokens: 1_500 });
    budget.admission('reason')(call(1_000, 500))(used(1_000, 20));
    expect(refusalOf(() => budget.admission('reason')(call(100, 450)))).toMatchObject({ code: 'BUDGET_EXCEEDED', field: 'constraints.max_tokens' });
    expect(() => budget.admission('reason')(call(30, 450))).not.toThrow();
  });

  it('reserves a call in flight at its worst case, so parallel calls cannot overrun the cap together', () => {
    const budget = new RunBudget({ maxCostUsd: 0.03 });
    const first = budget.admission('a')(call(1_000, 500));
    expect(() => budget.admission('b')(call(1_000, 500))).toThrow(/max_cost_usd/);
    first(used(1_000, 50));
    // Booked at its usage ($0.0115), the first leaves $0.0185: not the $0.025 worst case, but a smaller call's $0.017.
    expect(() => budget.admission('b')(call(1_000, 500))).toThrow(/max_cost_usd/);
    expect(() => budget.admission('b')(call(500, 400))).not.toThrow();
  });

  it('books an abandoned call (timed out, aborted) at its prompt tokens and their input price, a refused one at nothing', () => {
    const budget = new RunBudget({});
    budget.admission('reason')(call(1_000, 500))({ failed: 'abandoned' });
    expect(budget.committed()).toEqual({ costUsd: 0.01, tokens: 1_000 });
    budget.admission('reason')(call(1_000, 500))({ failed: 'rejected' });
    expect(budget.committed()).toEqual({ costUsd: 0.01, tokens: 1_000 });
  });

  it('takes its limits from the request constraints', () => {
    expect(budgetLimitsOf({ max_cost_usd: 0.5, max_tokens: 10, require_citations: true })).toEqual({ maxCostUsd: 0.5, maxTokens: 10 });
  });
});

describe('node attempts under the run budget', () => {
  it('books a completed node and snapshots the run totals on its outcome', async () => {
    let now = 0;
    const budget = new RunBudget({ maxCostUsd: 1 }, undefined, () => now);
    const done = await budget.runNode(REASON, new AbortController().signal, async (_signal, admit) => {
      admit(call(1_000, 500))(used(1_000, 100));
      now = 1_500;
      return outcome(0.013, 1_100);
    });
    expect(done.budget).toEqual({ costUsd: 0.013, tokens: 1_100, elapsedSeconds: 1.5 });
    // A retrieve node's "tokens" are evidence, not model spend: only its model cost counts.
    const retrieved = await budget.runNode(RETRIEVE, new AbortController().signal, async () => outcome(0, 4_000));
    expect(retrieved.budget).toMatchObject({ costUsd: 0.013, tokens: 1_100 });
  });

  it('keeps what a failed attempt’s calls spent, so its retry is priced against it', async () => {
    const budget = new RunBudget({ maxCostUsd: 0.03 });
    const failed = budget.runNode(REASON, new AbortController().signal, async (_signal, admit) => {
      admit(call(1_000, 500))(used(1_000, 100));
      throw new Error('model said no');
    });
    await expect(failed).rejects.toThrow('model said no');
    expect(budget.committed().costUsd).toBeCloseTo(0.013, 12);
    await expect(budget.runNode(REASON, new AbortController().signal, async (_signal, admit) => (admit(call(1_000, 500)), outcome(0, 0)))).rejects.toMatchObject({ code: 'BUDGET_EXCEEDED' });
  });

  it('starts no node once the deadline has passed', async () => {
    let now = 0;
    const budget = new RunBudget({ maxLatencySeconds: 2 }, undefined, () => now);
    now = 2_001;
    let started = false;
    const refused = budget.runNode(RETRIEVE, new AbortController().signal, async () => ((started = true), outcome(0, 0)));
    await expect(refused).rejects.toMatchObject({ code: 'BUDGET_EXCEEDED', field: 'constraints.max_latency_seconds' });
    await expect(refused).rejects.toThrow(/^max_latency_seconds: the run's 2 s deadline passed before node retrieve started/);
    expect(started).toBe(false);
  });

  it('aborts the node in flight at the deadline and fails within 100 ms of it', async () => {
    const budget = new RunBudget({ maxLatencySeconds: 0.2 });
    const began = performance.now();
    let sawAbort: unknown;
    const work = budget.runNode(REASON, new AbortController().signal, (signal) => new Promise<NodeOutcome>((_, reject) => signal.addEventListener('abort', () => ((sawAbort = signal.reason), reject(signal.reason)))));
    await expect(work).rejects.toThrow(/^max_latency_seconds: the run's 0.2 s deadline passed while node reason ran; its calls were aborted/);
    const pastMs = performance.now() - began - 200;
    expect(pastMs).toBeGreaterThanOrEqual(-1);
    expect(pastMs).toBeLessThan(100);
    expect(sawAbort).toMatchObject({ code: 'BUDGET_EXCEEDED' });
  });

  it('fails at the deadline even when the work ignores its signal, waiting at most DEADLINE_SETTLE_MS for it', async () => {
    const budget = new RunBudget({ maxLatencySeconds: 0.1 });
    const began = performance.now();
    await expect(budget.runNode(REASON, new AbortController().signal, () => new Promise<NodeOutcome>(() => undefined))).rejects.toMatchObject({ code: 'BUDGET_EXCEEDED' });
    expect(performance.now() - began).toBeLessThan(100 + DEADLINE_SETTLE_MS + 50);
  });

  it('a resumed run starts from what its recorded nodes spent and how long they took', () => {
    const recorded = new Map<string, NodeOutcome>([['reason', { ...outcome(0.02, 900), budget: { costUsd: 0.02, tokens: 900, elapsedSeconds: 3 } }]]);
    let now = 0;
    const budget = new RunBudget({ maxCostUsd: 0.03 }, { outcomes: recorded, kindOf: () => 'reason' }, () => now);
    now = 500;
    expect(budget.committed()).toEqual({ costUsd: 0.02, tokens: 900 });
    expect(budget.elapsedSeconds()).toBe(3.5);
  });
});
