import type { GraphNode } from '@/server/runtime/ir/graph';
import { formatTokens } from '@/components/explain/format';
import type { PlanNodeView } from './plan-metrics';

/** The node's own settings, by kind, as a definition list (what EXPLAIN VERBOSE would print). */
function settingsOf(node: GraphNode): [string, string][] {
  const common: [string, string][] = [['inputs', node.inputs.length > 0 ? node.inputs.join(', ') : 'none']];
  if (node.retry) common.push(['retry', `${node.retry.maxAttempts} attempts, backoff ${node.retry.backoffMs} ms`]);
  if (node.timeoutMs) common.push(['timeout', `${node.timeoutMs} ms`]);
  if (node.loop) common.push(['loop', `until ${node.loop.until}, at most ${node.loop.maxIterations}`]);
  if (node.compensation) common.push(['compensation', node.compensation]);
  switch (node.kind) {
    case 'retrieve':
      return [
        ['method', node.method],
        ['sources', node.sources.join(', ') || 'all'],
        ['source kinds', node.sourceKinds === 'all' ? 'all' : node.sourceKinds.join(', ')],
        ['k', String(node.k)],
        ['per source', node.perSource ? 'yes' : 'no'],
        ['query', node.subQuestionOf ? `sub-question ${node.subQuestionOf.slot + 1} of ${node.subQuestionOf.node}` : node.focus === 'entities' ? 'entities and identifiers' : 'the goal'],
        ...(node.queryExpansion?.length ? [['expansion', node.queryExpansion.join(' ')] as [string, string]] : []),
        ...(node.within?.length ? [['stamped within', node.within.map((window) => `${window.from} – ${window.to}${window.anyYear ? ' (any year)' : ''}`).join('; ')] as [string, string]] : []),
        ...(node.feedback ? [['feedback', `from ${node.feedback.fromNode}: ${node.feedback.terms} terms from ${node.feedback.documents} documents`] as [string, string]] : []),
        ...common,
      ];
    case 'fuse':
      return [['strategy', `${node.strategy}, k=${node.rrfK}`], ['keeps', String(node.k)], ...common];
    case 'rerank':
      return [['method', node.method], ['top', String(node.topN)], ...common];
    case 'compress':
      return [['method', node.method], ...common];
    case 'assemble':
      return [['token budget', formatTokens(node.tokenBudget)], ['final k', String(node.finalK)], ['cover sources', node.coverSources ? 'yes' : 'no'], ...common];
    case 'reason':
      return [['tier', node.tier], ['strategy', node.strategy], ['role', `${node.purpose ?? 'answer'}${node.slot !== undefined ? ` ${node.slot + 1}` : ''}`], ['local only', node.localOnly ? 'yes' : 'no'], ['citations', node.requireCitations ? 'required' : 'optional'], ['max output', `${formatTokens(node.maxOutputTokens)} tokens`], ...common];
    case 'verify':
      return [['method', node.method], ...common];
    case 'approve':
      return [['approver role', node.approverRole], ['reason', node.reason], ...common];
    case 'branch':
      return [['condition', node.condition], ['when true', node.whenTrue.join(', ')], ['when false', node.whenFalse.join(', ')], ...common];
    case 'merge':
      return common;
  }
}

export function NodeSettings({ view }: { readonly view: PlanNodeView }) {
  const rows = settingsOf(view.node);
  if (view.models.length > 0) rows.unshift(['model', view.models.join(', ')]);
  return (
    <dl className="facts plan-settings">
      {rows.map(([term, value]) => (
        <div key={term}>
          <dt>{term}</dt>
          <dd>{value}</dd>
        </div>
      ))}
      {view.node.note ? (
        <div>
          <dt>why</dt>
          <dd>{view.node.note}</dd>
        </div>
      ) : null}
    </dl>
  );
}
