/**
 * build_context: ranked, cited passages for a goal within a token budget, for a caller that brings
 * its own model (an agent framework, an MCP client). The plan is made as for a run, then only the
 * part of its graph that feeds the assemble node runs (retrieve, fuse, rerank, compress, assemble):
 * no reason node, so no answer-writing model call, and nothing is stored — no run record, no span
 * in Postgres. Where observability is configured it is traced like EXPLAIN: a `build_context` root
 * with the planning tree and the nodes that ran, sent to the exporters only.
 */
import { randomUUID } from 'node:crypto';
import type { NodeOutcome } from '../contracts/scheduler';
import type { RuntimeConfig } from '../config/config-schema';
import { ContextRuntimeError, invalidInput } from '../errors';
import type { AssembledContext } from '../execution/assemble-context';
import { createGraph, type ExecutionGraph, type GraphNode } from '../ir/graph';
import type { RejectedSource, SourceKind } from '../types';
import { traceNode } from '../observability/node-trace';
import { tracePlanning } from '../observability/plan-trace';
import { RunTracer } from '../observability/run-tracer';
import { NodeSpanIds } from '../observability/trace-parent';
import { nodeExecutorFor } from './execute-run';
import { nodeDeadline } from './node-deadline';
import type { PlannedRequest } from './plan-request';
import type { RuntimePlugins } from './runtime-plugins';

/** A budget beyond any model's context window is a mistake, not a request. */
export const MAX_CONTEXT_TOKEN_BUDGET = 200_000;

/** One passage, numbered as a model would cite it ([1], [2], …), with where it came from. */
export interface ContextPassage {
  readonly ref: number;
  readonly chunkId: string;
  readonly sourceName: string;
  readonly sourceKind: SourceKind;
  readonly sourceVersionId: string;
  readonly title: string;
  /** Where in the source: "line 42", "commit 1a2b3c4"; null when the source has no finer position. */
  readonly locator: string | null;
  /** The passage as packed (compressed when `compressed`). */
  readonly text: string;
  readonly tokens: number;
  readonly compressed: boolean;
  readonly score: number;
  readonly method: string;
}

export interface GoalContext {
  readonly goal: string;
  readonly planHash: string;
  readonly tokenBudget: number;
  /** Tokens of the passages returned (at most `tokenBudget`). */
  readonly tokens: number;
  readonly passages: readonly ContextPassage[];
  readonly bySource: AssembledContext['bySource'];
  readonly dropped: AssembledContext['dropped'];
  readonly selectedSources: readonly string[];
  readonly rejectedSources: readonly RejectedSource[];
}

export function validateTokenBudget(raw: unknown): number | undefined {
  if (raw === undefined) return undefined;
  if (typeof raw !== 'number' || !Number.isInteger(raw) || raw < 1 || raw > MAX_CONTEXT_TOKEN_BUDGET) {
    throw invalidInput('tokenBudget', `expected an integer from 1 to ${MAX_CONTEXT_TOKEN_BUDGET}, got ${JSON.stringify(raw)}`);
  }
  return raw;
}

/** The assemble node and every node it depends on, with the budget applied; nothing downstream of it. */
function contextGraph(graph: ExecutionGraph, tokenBudget: number | undefined): { graph: ExecutionGraph; assemble: Extract<GraphNode, { kind: 'assemble' }> } {
  const byId = new Map(graph.nodes.map((node) => [node.id, node]));
  const assemble = graph.nodes.find((node): node is Extract<GraphNode, { kind: 'assemble' }> => node.kind === 'assemble');
  if (!assemble) throw new ContextRuntimeError('INTERNAL', 'the plan has no assemble node to build a context from');
  const needed = new Set<string>();
  const visit = (id: string) => {
    if (needed.has(id)) return;
    needed.add(id);
    for (const input of byId.get(id)?.inputs ?? []) visit(input);
  };
  visit(assemble.id);
  const budgeted = tokenBudget === undefined ? assemble : Object.freeze({ ...assemble, tokenBudget });
  return { graph: createGraph(graph.nodes.filter((node) => needed.has(node.id)).map((node) => (node.id === assemble.id ? budgeted : node))), assemble: budgeted };
}

export async function contextForPlan(plugins: RuntimePlugins, config: RuntimeConfig, plan: PlannedRequest, tokenBudget: number | undefined): Promise<GoalContext> {
  const tracer = new RunTracer(randomUUID(), plugins.traceSink.exportOnly ? plugins.traceSink : undefined, { transient: true });
  const root = tracePlanning(tracer, plan, 'build_context', { goal: plan.request.goal });
  try {
    const context = await executeContext(plugins, config, plan, tokenBudget, tracer, root.id);
    root.end({ attributes: { tokenBudget: context.tokenBudget, tokens: context.tokens, passages: context.passages.length, dropped: context.dropped.length } });
    return context;
  } catch (error) {
    root.end({ status: 'error', attributes: { error: error instanceof Error ? error.message : String(error) } });
    throw error;
  } finally {
    // An exporter's trouble never fails the context the caller asked for.
    await tracer.flush().catch((error: unknown) => console.warn(`build_context: spans were not exported: ${error instanceof Error ? error.message : String(error)}`));
  }
}

async function executeContext(plugins: RuntimePlugins, config: RuntimeConfig, plan: PlannedRequest, tokenBudget: number | undefined, tracer: RunTracer, rootSpanId: string): Promise<GoalContext> {
  const { graph, assemble } = contextGraph(plan.graph, tokenBudget);
  const nodeSpans = new NodeSpanIds(tracer.runId);
  const executor = nodeSpans.wrap(await nodeExecutorFor(plugins, config, plan.request, plan.explain));
  const checkpoint = { completed: new Map<string, NodeOutcome>(), skipped: new Set<string>(), decisions: new Map<string, 'approved' | 'rejected'>() };
  const tiers = plugins.router.tiers();
  const onNodeDone = async (node: GraphNode, outcome: NodeOutcome, attempt: number) => traceNode(tracer, rootSpanId, node, outcome, attempt, tiers, nodeSpans.of(node.id, attempt));
  const result = await plugins.scheduler.run(graph, plugins.scheduler.schedule(graph, { concurrency: config.scheduler.concurrency }), executor, checkpoint, { onNodeDone }, { nodeTimeoutMs: nodeDeadline(config, tiers.length) });
  if (result.status !== 'completed') {
    const why = result.status === 'failed' ? `node ${result.nodeId} failed: ${result.error}` : `it ended ${result.status}`;
    throw new ContextRuntimeError('NODE_FAILED', `building the context stopped: ${why}`);
  }
  const assembled = result.outcomes.get(assemble.id)?.output as AssembledContext;
  return {
    goal: plan.request.goal,
    planHash: plan.explain.planHash,
    tokenBudget: assemble.tokenBudget,
    tokens: assembled.tokens,
    passages: assembled.items.map((item) => ({
      ref: item.ref,
      chunkId: item.hit.chunkId,
      sourceName: item.hit.sourceName,
      sourceKind: item.hit.sourceKind,
      sourceVersionId: item.hit.sourceVersionId,
      title: item.hit.title,
      locator: item.hit.locator ?? null,
      text: item.text,
      tokens: item.tokens,
      compressed: item.compressed,
      score: item.hit.score,
      method: item.hit.method,
    })),
    bySource: assembled.bySource,
    dropped: assembled.dropped,
    selectedSources: plan.explain.selectedSources,
    rejectedSources: plan.explain.rejectedSources,
  };
}
