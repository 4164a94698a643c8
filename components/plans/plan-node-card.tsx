'use client';
/**
 * One custom React Flow node per Execution Graph kind. They share a frame (kind, id, estimated and
 * actual figures, tags, shading) and differ in the line that says what the node does: the
 * retrieval method and sources, the model tier and model, the fusion, the compression…
 * Memoised: React Flow re-renders a node only when its data object changes.
 */
import { Handle, Position, type Node, type NodeProps, type NodeTypes } from '@xyflow/react';
import { createContext, memo, useContext, type ReactNode } from 'react';
import type { NodeKind } from '@/server/runtime/ir/graph';
import { formatSeconds, formatTokens, formatUsd } from '@/components/explain/format';
import { METRIC_LABELS, shade, type Metric, type PlanNodeView } from './plan-metrics';

/** `vertical`: the plan is drawn top to bottom (graph-layout.ts), so edges enter at the top and leave at the bottom. */
export type PlanFlowNode = Node<{ readonly view: PlanNodeView; readonly metric: Metric; readonly vertical: boolean }, NodeKind>;

/** Selection goes through context so node data stays stable when the selection changes. */
export const NodeSelectContext = createContext<(nodeId: string) => void>(() => undefined);

const percent = (share: number) => `${(share * 100).toFixed(share < 0.1 ? 1 : 0)}%`;

function Figure({ label, estimate, actual, format }: { readonly label: string; readonly estimate: number; readonly actual?: number; readonly format: (value: number) => string }) {
  return (
    <span className="plan-node-figure">
      <span className="plan-node-figure-label">{label}</span> {format(estimate)}
      {actual !== undefined ? <strong> → {format(actual)}</strong> : null}
    </span>
  );
}

function NodeFrame({ view, metric, vertical, children }: { readonly view: PlanNodeView; readonly metric: Metric; readonly vertical: boolean; readonly children: ReactNode }) {
  const select = useContext(NodeSelectContext);
  const { node, estimate, actual } = view;
  const label = `${node.kind} node ${node.id}, ${view.status}${view.tags.length ? `, ${view.tags.join(', ')}` : ''}: open details`;
  return (
    <>
      <Handle type="target" position={vertical ? Position.Top : Position.Left} isConnectable={false} />
      <button
        type="button"
        className={`plan-node plan-node-${node.kind} plan-node-status-${view.status}`}
        style={{ background: shade(view.intensity[metric], metric) }}
        onKeyDown={(event) => {
          // Mouse clicks reach React Flow's onNodeClick; Enter and Space are the keyboard's click.
          if (event.key === 'Enter' || event.key === ' ') {
            event.preventDefault();
            select(node.id);
          }
        }}
        aria-label={label}
        data-testid="plan-node"
        data-node-id={node.id}
      >
        <span className="plan-node-head">
          <span className={`plan-node-kind kind-${node.kind}`}>{node.kind}</span>
          <span className="plan-node-id" title={node.id}>
            {node.id}
          </span>
        </span>
        <span className="plan-node-what">{children}</span>
        <span className="plan-node-figures">
          <Figure label="tok" estimate={estimate.tokens} actual={actual?.tokens} format={formatTokens} />
          <Figure label="cost" estimate={estimate.costUsd} actual={actual?.costUsd} format={formatUsd} />
          <Figure label="time" estimate={estimate.latencySeconds} actual={actual?.latencySeconds} format={formatSeconds} />
        </span>
        <span className="plan-node-foot">
          <span className="plan-node-share" title={`share of the plan's ${METRIC_LABELS[metric]}`}>
            {percent(view.share[metric])} of {METRIC_LABELS[metric]}
          </span>
          {view.tags.map((tag) => (
            <span key={tag} className="plan-node-tag" data-testid="plan-node-tag">
              {tag}
            </span>
          ))}
        </span>
      </button>
      <Handle type="source" position={vertical ? Position.Bottom : Position.Right} isConnectable={false} />
    </>
  );
}

type KindProps = NodeProps<PlanFlowNode>;
const withFrame = (describe: (view: PlanNodeView) => ReactNode) =>
  memo(function PlanKindNode({ data }: KindProps) {
    return (
      <NodeFrame view={data.view} metric={data.metric} vertical={data.vertical}>
        {describe(data.view)}
      </NodeFrame>
    );
  });

const list = (items: readonly string[], max = 3) => (items.length <= max ? items.join(', ') : `${items.slice(0, max).join(', ')} +${items.length - max}`);

/** What each kind shows on its card. Exhaustive over NodeKind: a new kind fails typecheck here. */
export const PLAN_NODE_TYPES = {
  retrieve: withFrame(({ node }) =>
    node.kind === 'retrieve' ? (
      <>
        <b>{node.method}</b> k={node.k} · {list(node.sources)}
        {node.feedback ? ' · feedback hop' : node.focus === 'entities' ? ' · entities' : ''}
      </>
    ) : null,
  ),
  fuse: withFrame(({ node }) => (node.kind === 'fuse' ? <>{node.strategy.toUpperCase()} of {node.inputs.length} lists → top {node.k}</> : null)),
  rerank: withFrame(({ node }) => (node.kind === 'rerank' ? <><b>{node.method}</b> → top {node.topN}</> : null)),
  compress: withFrame(({ node }) => (node.kind === 'compress' ? <><b>{node.method}</b></> : null)),
  assemble: withFrame(({ node }) => (node.kind === 'assemble' ? <>budget {formatTokens(node.tokenBudget)} tok · final k {node.finalK}</> : null)),
  reason: withFrame(({ node, models }) =>
    node.kind === 'reason' ? (
      <>
        <b>{models.length > 0 ? list(models, 2) : node.tier}</b> · {node.strategy.replace(/_/g, ' ')}
        {node.purpose && node.purpose !== 'answer' ? ` · ${node.purpose}${node.slot !== undefined ? ` ${node.slot + 1}` : ''}` : ''}
        {node.localOnly ? ' · local' : ''}
      </>
    ) : null,
  ),
  verify: withFrame(({ node }) => (node.kind === 'verify' ? <><b>{node.method.replace(/_/g, ' ')}</b></> : null)),
  approve: withFrame(({ node }) => (node.kind === 'approve' ? <>role <b>{node.approverRole}</b></> : null)),
  branch: withFrame(({ node }) => (node.kind === 'branch' ? <>if <code>{node.condition}</code></> : null)),
  merge: withFrame(({ node }) => (node.kind === 'merge' ? <>joins {node.inputs.length} inputs</> : null)),
} satisfies Record<NodeKind, unknown> as unknown as NodeTypes;
