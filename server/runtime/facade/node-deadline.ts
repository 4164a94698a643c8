/**
 * The deadline of a node whose plan gave it none (the graph builder gives retrieve nodes theirs).
 * A node timeout must abort the work for every node kind; the scheduler enforces it by aborting the
 * node's signal, which reaches the AI SDK call and the retrievers.
 */
import type { RuntimeConfig } from '../config/config-schema';
import type { GraphNode } from '../ir/graph';

/**
 * A reason node makes one answer call that may climb the tier ladder, each rung getting up to
 * `scheduler.node_timeout_ms` (a timed-out tier hands the call up: tiered-router.ts); its deadline
 * covers the whole ladder, so a fallback started in time is not cut. Every other kind gets
 * `scheduler.node_timeout_ms`.
 */
export function nodeDeadline(config: RuntimeConfig, tierCount: number): (node: GraphNode) => number {
  const perNode = config.scheduler.node_timeout_ms;
  return (node) => (node.kind === 'reason' ? perNode * Math.max(1, tierCount) : perNode);
}
