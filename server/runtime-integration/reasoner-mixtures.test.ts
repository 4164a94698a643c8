/**
 * Reasoner mixtures (issue 15, point 2) through the whole runtime against a scripted loopback
 * model: plan_worker_critic's decompose, workers (each with its own retrieval), critic and merge
 * are each a reason node; the workers run side by side; EXPLAIN ANALYZE has an estimate and an
 * actual per call; the run budget refuses the calls after one that overspent; the verification gate
 * still reads the merged answer; edited mixtures are accepted when wired as their purpose needs and
 * refused by field otherwise; a debate (solvers, judge) runs as an edited plan.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_QUESTION } from '../ingest/demo-corpus';
import type { GraphNode } from '../runtime/ir/graph';
import { CONTEXT_SYSTEM_PROMPT, parseContextPrompt } from '../runtime/reasoner/context-prompt';
import { CRITIC_SYSTEM_PROMPT, DECOMPOSE_SYSTEM_PROMPT, JUDGE_ANSWER_PROMPT } from '../runtime/reasoner/mixture-prompts';
import { startLoopbackOpenAIServer, type LoopbackOpenAIServer } from '../testing/loopback-openai-server';
import { openRuntimeFixture, type RuntimeFixture } from '../testing/runtime-fixture';
import { isJudgeCall, scriptedAnswer, scriptedJudgement } from '../testing/scripted-answer-model';

const SUB_QUESTIONS = ['What error did the checkout-api pods report?', 'Which change raised the memory use of checkout-api?'];
/**
 * Mixtures win once cost and latency do not count and an operator has measured a gain for them
 * (costmodel.reasoner_gains): unmeasured, a mixture's gain is 0 and one shot wins (reasoner-gains.ts).
 */
const MIXTURE_WEIGHTS = { cost: 0, lat: 0 };
const MEASURED_GAINS = { plan_worker_critic: { incident: 0.2 }, debate: { incident: 0.1 } };
const WORKER_DELAY_MS = 300;

let server: LoopbackOpenAIServer;
let fixture: RuntimeFixture;

type Kind = 'decompose' | 'worker' | 'critic' | 'merge' | 'solver' | 'judge-answer' | 'judge' | 'other';
const messages = (body: Record<string, unknown>) => (body.messages as { role: string; content: string }[] | undefined) ?? [];
const system = (body: Record<string, unknown>) => messages(body).find((message) => message.role === 'system')?.content ?? '';
const user = (body: Record<string, unknown>) => messages(body).find((message) => message.role === 'user')?.content ?? '';

function kindOf(body: Record<string, unknown>): Kind {
  if (isJudgeCall(body)) return 'judge';
  if (system(body).startsWith(DECOMPOSE_SYSTEM_PROMPT)) return 'decompose';
  if (system(body) === CRITIC_SYSTEM_PROMPT) return 'critic';
  if (system(body) === JUDGE_ANSWER_PROMPT) return 'judge-answer';
  const question = parseContextPrompt(user(body))?.question ?? '';
  if (SUB_QUESTIONS.includes(question)) return 'worker';
  if (system(body) === CONTEXT_SYSTEM_PROMPT) return 'merge';
  if (system(body).startsWith(CONTEXT_SYSTEM_PROMPT)) return 'solver';
  return 'other';
}

/** The scripted model: two sub-questions, workers that answer from their passages (slowly), a critic that fails the second. */
function script(options: { readonly decomposeUsage?: { prompt_tokens: number; completion_tokens: number } } = {}) {
  const seen: SeenCall[] = [];
  server.script((body) => {
    const kind = kindOf(body);
    seen.push({ kind, at: performance.now(), body });
    switch (kind) {
      case 'decompose':
        return { text: SUB_QUESTIONS.map((question, index) => `${index + 1}. ${question}`).join('\n'), ...(options.decomposeUsage ? { usage: options.decomposeUsage } : {}) };
      case 'worker':
      case 'solver':
        return { text: scriptedAnswer('correct', body, 0), delayMs: WORKER_DELAY_MS };
      case 'critic':
        return { text: '1: GROUNDED\n2: UNGROUNDED — the evidence names no change' };
      case 'judge':
        return { text: scriptedJudgement(body) };
      case 'merge':
      case 'judge-answer':
        return { text: scriptedAnswer('correct', body, 0) };
      default:
        // The LLM reranker's grading: no parseable grades, so it keeps the first stage's order.
        return { text: 'no grades' };
    }
  });
  return seen;
}

interface SeenCall { readonly kind: Kind; readonly at: number; readonly body: Record<string, unknown> }
const byKind = (seen: readonly SeenCall[], kind: Kind) => seen.filter((call) => call.kind === kind);

describe('reasoner mixtures over a scripted loopback model', () => {
  beforeAll(async () => {
    server = await startLoopbackOpenAIServer();
    fixture = await openRuntimeFixture({
      config: {
        models: { tiers: [{ name: 'model', provider: 'openai-compatible', base_url: server.baseURL, model: 'loop-1', quality_prior: 0.9, input_usd_per_million: 1, output_usd_per_million: 2 }, { name: 'local', provider: 'extractive' }] },
        scheduler: { backoff_ms: 0 },
        learning: { enabled: false },
        costmodel: { reasoner_gains: MEASURED_GAINS },
      },
    });
  }, 120_000);

  afterAll(async () => {
    await fixture?.close();
    await server?.close();
  });

  it('plans plan_worker_critic as one node per call, with a retrieval per worker, under the verification gate', async () => {
    const explain = await fixture.runtime.explain({ goal: DEMO_QUESTION, weights: MIXTURE_WEIGHTS });
    expect(explain.chosen.choice.reasoning).toBe('plan_worker_critic');
    const byId = new Map(explain.graph.nodes.map((node) => [node.id, node]));
    expect(byId.get('decompose')).toMatchObject({ kind: 'reason', purpose: 'decompose', inputs: [] });
    for (const slot of [0, 1, 2]) {
      expect(byId.get(`retrieve-worker${slot + 1}`)).toMatchObject({ kind: 'retrieve', inputs: ['decompose'], subQuestionOf: { node: 'decompose', slot } });
      expect(byId.get(`worker${slot + 1}`)).toMatchObject({ kind: 'reason', purpose: 'worker', slot, inputs: [`assemble-worker${slot + 1}`, 'decompose'], tier: 'model' });
    }
    expect(byId.get('critic')).toMatchObject({ kind: 'reason', purpose: 'critic', inputs: ['worker1', 'worker2', 'worker3'] });
    expect(byId.get('reason')).toMatchObject({ kind: 'reason', strategy: 'plan_worker_critic', inputs: ['assemble', 'critic', 'worker1', 'worker2', 'worker3'] });
    expect(byId.get('reason')).not.toHaveProperty('purpose');
    // The gate reads the merged answer, as it reads a single shot's.
    expect(byId.get('judge')).toMatchObject({ kind: 'verify', method: 'llm_judge', inputs: ['reason', 'assemble', 'verify'] });
    // Every call has its own estimate; the six calls share the candidate's model totals.
    const calls = explain.graph.nodes.filter((node) => node.kind === 'reason' && !node.id.includes('retry'));
    expect(calls.map((node) => node.id)).toEqual(['decompose', 'worker1', 'worker2', 'worker3', 'critic', 'reason']);
    for (const node of calls) expect(node.estimate?.tokens).toBeGreaterThan(0);
  });

  it('runs the workers in parallel, skips the idle one, merges only grounded answers, and shows estimate vs actual per call', async () => {
    const seen = script();
    const result = await fixture.runtime.run({ goal: DEMO_QUESTION, weights: MIXTURE_WEIGHTS });
    expect(result.status).toBe('completed');
    expect(result.verification?.passed).toBe(true);
    expect(byKind(seen, 'decompose')).toHaveLength(1);
    const workers = byKind(seen, 'worker');
    expect(workers).toHaveLength(2);
    // Both workers were asked before either had answered: the scheduler ran them side by side.
    expect(Math.abs(workers[0].at - workers[1].at)).toBeLessThan(WORKER_DELAY_MS);
    expect(byKind(seen, 'critic')).toHaveLength(1);
    const merge = byKind(seen, 'merge');
    expect(merge).toHaveLength(1);
    // The critic failed worker 2: only worker 1's answer is put beside the question.
    expect(user(merge[0].body)).toContain(`- ${SUB_QUESTIONS[0]} →`);
    expect(user(merge[0].body)).not.toContain(`- ${SUB_QUESTIONS[1]} →`);
    expect(byKind(seen, 'judge')).toHaveLength(1);
    const analyzed = new Map((result.explain.analyze?.nodes ?? []).map((node) => [node.nodeId, node]));
    for (const id of ['decompose', 'worker1', 'worker2', 'critic', 'reason']) {
      const node = analyzed.get(id)!;
      expect(node.status, id).toBe('done');
      expect(node.estimate.tokens, id).toBeGreaterThan(0);
      expect(node.actual?.tokens, id).toBeGreaterThan(0);
      expect(node.actual?.costUsd, id).toBeGreaterThan(0);
      expect(node.misestimate, id).toBeDefined();
      expect(node.modelCalls, id).toHaveLength(1);
    }
    // Worker 3 had no sub-question: it ran, called nothing and spent nothing.
    expect(analyzed.get('worker3')).toMatchObject({ status: 'done', actual: { tokens: 0, costUsd: 0 } });
    expect(analyzed.get('retrieve-worker3')?.actual?.tokens).toBe(0);
    expect(analyzed.get('retrieve-worker1')?.actual?.tokens).toBeGreaterThan(0);
    expect(result.answer?.length).toBeGreaterThan(0);
    expect(result.citations.length).toBeGreaterThan(0);
  });

  it('refuses the calls after one that overspent max_cost_usd, mid-mixture, naming the limit', async () => {
    // The decompose call reports 100,000 prompt tokens ($0.10 at $1/M): the cap is spent after it.
    const seen = script({ decomposeUsage: { prompt_tokens: 100_000, completion_tokens: 20 } });
    const result = await fixture.runtime.run({ goal: DEMO_QUESTION, weights: MIXTURE_WEIGHTS, constraints: { max_cost_usd: 0.05 } });
    expect(result.explain.chosen.choice.reasoning).toBe('plan_worker_critic');
    expect(result.status).toBe('failed');
    expect(result.error).toMatch(/max_cost_usd/);
    expect(byKind(seen, 'decompose')).toHaveLength(1);
    expect(byKind(seen, 'worker')).toHaveLength(0);
    expect(byKind(seen, 'merge')).toHaveLength(0);
    const statuses = new Map((result.explain.analyze?.nodes ?? []).map((node) => [node.nodeId, node.status]));
    expect(statuses.get('decompose')).toBe('done');
    expect(statuses.get('reason')).not.toBe('done');
  });

  describe('edited mixtures', () => {
    let planned: readonly GraphNode[];
    beforeAll(async () => {
      planned = (await fixture.runtime.explain({ goal: DEMO_QUESTION, weights: MIXTURE_WEIGHTS })).graph.nodes;
    });
    const edit = (change: (nodes: GraphNode[]) => GraphNode[]) => ({ version: 1, nodes: change(planned.map((node) => ({ ...node }))) });
    const replace = (nodes: GraphNode[], id: string, fields: Record<string, unknown>) => nodes.map((node) => (node.id === id ? ({ ...node, ...fields } as GraphNode) : node));
    const refused = (graph: unknown) => fixture.runtime.runEditedPlan({ goal: DEMO_QUESTION, weights: MIXTURE_WEIGHTS }, graph);

    it('accepts the plan with one worker fewer, and runs it', async () => {
      const seen = script();
      const graph = edit((nodes) => {
        const kept = nodes.filter((node) => !node.id.endsWith('worker3'));
        return replace(replace(kept, 'critic', { inputs: ['worker1', 'worker2'] }), 'reason', { inputs: ['assemble', 'critic', 'worker1', 'worker2'] });
      });
      const result = await fixture.runtime.runEditedPlan({ goal: DEMO_QUESTION, weights: MIXTURE_WEIGHTS }, graph);
      expect(result.status).toBe('completed');
      expect(result.explain.graph.nodes.some((node) => node.id === 'worker3')).toBe(false);
      expect(byKind(seen, 'worker')).toHaveLength(2);
    });

    it('refuses a worker without its decompose input, a worker on a debate, and a retrieval whose sub-question is not a decompose node', async () => {
      await expect(refused(edit((nodes) => replace(nodes, 'worker1', { inputs: ['assemble-worker1'] })))).rejects.toMatchObject({ code: 'INVALID_GRAPH', field: 'graph.nodes.worker1.inputs' });
      await expect(refused(edit((nodes) => replace(nodes, 'worker1', { strategy: 'debate' })))).rejects.toMatchObject({ code: 'INVALID_GRAPH', field: 'graph.nodes.worker1.strategy' });
      await expect(refused(edit((nodes) => replace(nodes, 'retrieve-worker1', { inputs: ['decompose', 'assemble'], subQuestionOf: { node: 'assemble', slot: 0 } })))).rejects.toMatchObject({ code: 'INVALID_GRAPH', field: 'graph.nodes.retrieve-worker1.subQuestionOf' });
      await expect(refused(edit((nodes) => replace(nodes, 'critic', { inputs: ['worker1', 'assemble'] })))).rejects.toMatchObject({ code: 'INVALID_GRAPH', field: 'graph.nodes.critic.inputs' });
      await expect(refused(edit((nodes) => replace(nodes, 'worker2', { slot: 12 })))).rejects.toMatchObject({ code: 'INVALID_GRAPH', field: 'graph.nodes.worker2.slot' });
    });

    it('runs a debate: two solvers side by side, then a judge that reads them beside the same context', async () => {
      const seen = script();
      const graph = edit((nodes) => {
        const answer = nodes.find((node) => node.id === 'reason')!;
        const mixture = new Set(['decompose', 'critic', ...[1, 2, 3].flatMap((n) => [`retrieve-worker${n}`, `compress-worker${n}`, `assemble-worker${n}`, `worker${n}`])]);
        const solvers = [0, 1].map((slot) => ({ ...answer, id: `solver${slot + 1}`, inputs: ['assemble'], strategy: 'debate', purpose: 'solver', slot }) as GraphNode);
        const kept = nodes.filter((node) => !mixture.has(node.id)).map((node) => (node.id === 'reason' ? ({ ...node, strategy: 'debate', inputs: ['assemble', 'solver1', 'solver2'] } as GraphNode) : node));
        const at = kept.findIndex((node) => node.id === 'reason');
        return [...kept.slice(0, at), ...solvers, ...kept.slice(at)];
      });
      const result = await fixture.runtime.runEditedPlan({ goal: DEMO_QUESTION, weights: MIXTURE_WEIGHTS }, graph);
      expect(result.status).toBe('completed');
      const solvers = byKind(seen, 'solver');
      expect(solvers).toHaveLength(2);
      expect(Math.abs(solvers[0].at - solvers[1].at)).toBeLessThan(WORKER_DELAY_MS);
      const judge = byKind(seen, 'judge-answer');
      expect(judge).toHaveLength(1);
      expect(user(judge[0].body)).toContain('Candidate answers:');
      expect(user(judge[0].body)).toContain('Solver 2:');
      const analyzed = new Map((result.explain.analyze?.nodes ?? []).map((node) => [node.nodeId, node]));
      for (const id of ['solver1', 'solver2', 'reason']) expect(analyzed.get(id)?.actual?.tokens, id).toBeGreaterThan(0);
    });
  });
});
