import type { GraphNode } from '@/server/runtime/ir/graph';

/** The one line that says what a node does: method, tier, strategy or condition, by kind. */
export function nodeDetail(node: GraphNode): string {
  switch (node.kind) {
    case 'retrieve': {
      const scope = node.sources.length > 0 ? node.sources.join(', ') : node.sourceKinds === 'all' ? 'all sources' : node.sourceKinds.join(', ');
      return `${node.method} k=${node.k} · ${scope}`;
    }
    case 'fuse':
      return `${node.strategy} (k=${node.rrfK}) → ${node.k}`;
    case 'rerank':
      return `${node.method} top ${node.topN}`;
    case 'compress':
      return node.method;
    case 'assemble':
      return `budget ${node.tokenBudget} · final k ${node.finalK}`;
    case 'reason':
      return `${node.tier} · ${node.strategy}${node.localOnly ? ' · local only' : ''}${node.requireCitations ? ' · cites' : ''}`;
    case 'verify':
      return node.method;
    case 'approve':
      return `${node.approverRole}: ${node.reason}`;
    case 'branch':
      return `if ${node.condition}`;
    case 'merge':
      return '';
  }
}
