/**
 * One executed node as spans: the node with its estimate beside its actuals, a span per source
 * searched (a retrieve node), and a span per model call (a reason node). Shared by a run and by
 * build_context, which executes the retrieval half of the same plan.
 */
import type { RoutedResult, TierInfo } from '../contracts/router';
import type { NodeOutcome } from '../contracts/scheduler';
import type { GraphNode } from '../ir/graph';
import { typedOutput } from '../ir/node-outputs';
import type { RunTracer } from './run-tracer';

/** The model-context cache's outcome and the provider's own prompt-cache reads, when there are any. */
function modelCacheAttributes(call: RoutedResult): Record<string, number | string> {
  return {
    ...(call.cache ? { cache: call.cache.status } : {}),
    ...(call.cache?.savedTokens !== undefined ? { cacheSavedTokens: call.cache.savedTokens } : {}),
    ...(call.usage.cachedInputTokens !== undefined ? { cachedInputTokens: call.usage.cachedInputTokens } : {}),
  };
}

function estimateAttributes(node: GraphNode): Record<string, number> {
  const { estimate } = node;
  return estimate ? { estimatedTokens: estimate.tokens, estimatedCostUsd: estimate.costUsd, estimatedLatencySeconds: estimate.latencySeconds } : {};
}

/**
 * A node the run did not need (a retry attempt its passing gate skipped): its span still carries
 * the estimate the plan was priced with, beside actuals of zero, so a collector sums what was
 * planned against what was spent over every node of the plan.
 */
export function traceSkippedNode(tracer: RunTracer, parentId: string, node: GraphNode, reason: string): void {
  tracer.record(`node.${node.id}`, 'node', 0, { kind: node.kind, skipped: reason, ...estimateAttributes(node), actualTokens: 0, actualCostUsd: 0, actualLatencySeconds: 0 }, parentId);
}

/** `spanId`: the id the attempt ran under (trace-parent.ts), so spans started inside it (the AI SDK's) point at this one. */
export function traceNode(tracer: RunTracer, parentId: string, node: GraphNode, outcome: NodeOutcome, attempt: number, tiers: readonly TierInfo[], spanId?: string): void {
  const { id: nodeId, kind } = node;
  // Estimate beside actual on the node itself, so a collector shows where the cost model was off.
  const estimated = estimateAttributes(node);
  const nodeSpanId = tracer.record(
    `node.${nodeId}`,
    'node',
    outcome.actual.latencySeconds * 1000,
    { kind, attempts: attempt, ...estimated, actualTokens: outcome.actual.tokens, actualCostUsd: outcome.actual.costUsd, actualLatencySeconds: outcome.actual.latencySeconds },
    parentId,
    { tokens: outcome.actual.tokens, costUsd: outcome.actual.costUsd, ...(spanId ? { id: spanId } : {}) },
  );
  const typed = typedOutput(node, outcome.output);
  // A stratified retrieval is one search per source: each is its own span, so a slow source shows.
  if (typed.kind === 'retrieve') {
    for (const search of typed.output.searches ?? []) tracer.record(`search.${search.source}`, 'retrieval', search.latencyMs, { source: search.source, hits: search.hits }, nodeSpanId, {}, search.startedAtMs);
  }
  if (typed.kind !== 'reason') return;
  // A tool loop: one span per tool call, under the node, with what it read.
  for (const call of typed.output.toolLoop?.toolCalls ?? []) {
    tracer.record(`tool.${call.tool}`, 'tool', call.latencyMs, { tool: call.tool, step: call.step, passages: call.refs.length, facts: call.facts, unknownSources: call.unknownSources.length, ...(call.error ? { error: call.error } : {}), node: node.id }, nodeSpanId, {}, call.startedAtMs);
  }
  for (const call of typed.output.modelCalls) {
    const provider = tiers.find((tier) => tier.name === call.tier)?.capabilities.provider;
    tracer.record(`model.${call.tier}`, 'model', call.latencyMs, { modelId: call.modelId, tier: call.tier, ...(provider ? { provider } : {}), inputTokens: call.usage.inputTokens, outputTokens: call.usage.outputTokens, fallbacks: call.fallbacks, node: node.id, ...modelCacheAttributes(call) }, nodeSpanId, { tokens: call.usage.inputTokens + call.usage.outputTokens, costUsd: call.costUsd });
  }
}
