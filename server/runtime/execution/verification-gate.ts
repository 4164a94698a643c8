/**
 * Verification that gates (issue 15, point 4), as graph nodes after the answer:
 *
 *   reason → verify(method) → [verify-schema] → [judge] → gate ─false→ retrieve-retry2… → compress-retry2
 *     → assemble-retry2 → reason-retry2 → verify-retry2 → … → gate-retry2 ─false→ … (up to the last attempt)
 *
 * The checks are a chain (each verify node folds the verdicts before it), so one node holds the
 * attempt's verdict and the gate (a branch on `<verdict>.passed`) reads it. A passing gate takes no
 * branch and the scheduler skips every later attempt; a failing one runs the next attempt, which
 * escalates (broader retrieval, a stronger tier, another reasoner). The loop "retry until verified"
 * is unrolled into attempts so each has its own nodes, estimates and actuals in EXPLAIN ANALYZE;
 * the gate carries the loop's declaration (`loop`), the attempts bounded by config and budget.
 */
import { createNode, type GraphNode, type NodeEstimate, type ReasonNode, type RetrieveNode, type RetryPolicy } from '../ir/graph';
import type { CompressionMethod, ReasoningStrategy, SourceKind, VerificationMethod } from '../types';

/** One more attempt after a failed verdict: what it changes, and what the planner expects it to cost. */
export interface RetryAttempt {
  readonly methods: readonly string[];
  readonly k: number;
  readonly tier: string;
  readonly strategy: ReasoningStrategy;
  /** What this attempt escalates, for EXPLAIN ("top_k 10 → 20, tier cheap → premium"). */
  readonly why: string;
  readonly retrieveEstimate: NodeEstimate;
  readonly reasonEstimate: NodeEstimate;
  readonly judgeTier?: string;
}

export interface VerificationGateInput {
  /** The candidate's deterministic checks ('none': only the schema and the judge, if any). */
  readonly method: VerificationMethod;
  readonly verifyEstimate: NodeEstimate;
  /** The request carries an output_schema: the answer is checked against it. */
  readonly outputSchema: boolean;
  /** A model tier judges groundedness (absent: no model tier is configured, or the budget has no room). */
  readonly judge?: { readonly tier: string; readonly localOnly: boolean; readonly estimate: NodeEstimate };
  /** Verification is required: a failed verdict retries, then ends the run unverified. */
  readonly required: boolean;
  /** Attempts after the first, already bounded by max_attempts and the budget. */
  readonly retries: readonly RetryAttempt[];
  /** Attempts the budget left out, for the gate's note. */
  readonly budgetNote?: string;
  /** The first attempt's answer and context, and the fields a retry's nodes copy. */
  readonly answer: ReasonNode;
  readonly assemble: string;
  readonly retrieve: Pick<RetrieveNode, 'sources' | 'sourceKinds' | 'perSource' | 'retry' | 'timeoutMs'>;
  readonly compress: { readonly method: CompressionMethod; readonly estimate: NodeEstimate };
  readonly assembleFields: { readonly tokenBudget: number; readonly finalK: number; readonly coverSources?: boolean; readonly coverKinds?: readonly SourceKind[]; readonly note?: string; readonly estimate: NodeEstimate };
  readonly fuseEstimate: NodeEstimate;
}

export interface VerificationGate {
  readonly nodes: readonly GraphNode[];
  /** Each attempt's verdict node: an approval gate waits for all of them (the ones not run are skipped). */
  readonly verdicts: readonly string[];
}

const NO_RETRY: RetryPolicy = { maxAttempts: 1, backoffMs: 0 };

/** The checks of one attempt, chained; returns the verdict node's id (undefined when nothing checks). */
function checkChain(input: VerificationGateInput, answer: string, assemble: string, suffix: string, judgeTier: string | undefined, nodes: GraphNode[]): string | undefined {
  let verdict: string | undefined;
  const last = (id: string, final: boolean) => ({ id, ...(final && input.required ? { required: true } : {}) });
  const judge = input.judge && judgeTier ? { ...input.judge, tier: judgeTier } : undefined;
  const steps: { readonly id: string; readonly method: VerificationMethod | 'output_schema' | 'llm_judge'; readonly estimate: NodeEstimate; readonly extra?: object }[] = [
    ...(input.method !== 'none' ? [{ id: `verify${suffix}`, method: input.method, estimate: input.verifyEstimate }] : []),
    ...(input.outputSchema ? [{ id: `verify-schema${suffix}`, method: 'output_schema' as const, estimate: input.verifyEstimate }] : []),
    ...(judge ? [{ id: `judge${suffix}`, method: 'llm_judge' as const, estimate: judge.estimate, extra: { tier: judge.tier, localOnly: judge.localOnly, note: 'a judge model reads the answer against its context; asked only when the checks before it passed' } }] : []),
  ];
  steps.forEach((step, index) => {
    const { id, ...required } = last(step.id, index === steps.length - 1);
    nodes.push(createNode('verify', { id, inputs: [answer, assemble, ...(verdict ? [verdict] : [])], method: step.method, estimate: step.estimate, ...required, ...(step.extra ?? {}) }));
    verdict = id;
  });
  return verdict;
}

export function verificationGate(input: VerificationGateInput): VerificationGate {
  const nodes: GraphNode[] = [];
  const verdicts: string[] = [];
  let verdict = checkChain(input, input.answer.id, input.assemble, '', input.judge?.tier, nodes);
  if (!verdict) return { nodes, verdicts };
  verdicts.push(verdict);
  if (!input.required) return { nodes, verdicts };
  const attempts = input.retries.length + 1;
  let suffix = '';
  input.retries.forEach((retry, index) => {
    const next = `-retry${index + 2}`;
    const gate = `gate${suffix}`;
    const retrieveIds = retry.methods.map((method) => `retrieve${next}-${method}`);
    nodes.push(
      createNode('branch', {
        id: gate,
        inputs: [verdict!],
        condition: `${verdict}.passed`,
        whenTrue: [],
        whenFalse: retrieveIds,
        loop: { maxIterations: attempts, until: 'verified' },
        note: `verification is required: a failed verdict runs attempt ${index + 2} of ${attempts} (${retry.why})${index === input.retries.length - 1 && input.budgetNote ? `; ${input.budgetNote}` : ''}`,
      }),
    );
    retry.methods.forEach((method, position) =>
      nodes.push(createNode('retrieve', { ...input.retrieve, id: retrieveIds[position], inputs: [gate], method, k: retry.k, estimate: retry.retrieveEstimate, note: `attempt ${index + 2}: ${retry.why}` })),
    );
    let evidence = retrieveIds[0];
    if (retrieveIds.length > 1) {
      evidence = `fuse${next}`;
      nodes.push(createNode('fuse', { id: evidence, inputs: retrieveIds, strategy: 'rrf', rrfK: 60, k: retry.k, estimate: input.fuseEstimate }));
    }
    nodes.push(createNode('compress', { id: `compress${next}`, inputs: [evidence], method: input.compress.method, estimate: input.compress.estimate }));
    nodes.push(createNode('assemble', { id: `assemble${next}`, inputs: [`compress${next}`], ...input.assembleFields }));
    const { id: _id, inputs: _inputs, estimate: _estimate, note: _note, kind: _kind, ...reasonFields } = input.answer;
    nodes.push(createNode('reason', { ...reasonFields, id: `reason${next}`, inputs: [`assemble${next}`], tier: retry.tier, strategy: retry.strategy, retry: NO_RETRY, estimate: retry.reasonEstimate, note: `attempt ${index + 2}: ${retry.why}` }));
    verdict = checkChain(input, `reason${next}`, `assemble${next}`, next, retry.judgeTier, nodes)!;
    verdicts.push(verdict);
    suffix = next;
  });
  return { nodes, verdicts };
}
