'use client';
/**
 * The one node a retry attempt that has not run is drawn as (retry-collapse.ts): it says what it
 * stands for and expands into the attempt's nodes on click, Enter or Space. Its name does not end in
 * "open details": it opens no panel, it shows the nodes that do.
 */
import { Handle, Position, type Node, type NodeProps } from '@xyflow/react';
import { createContext, memo, useContext } from 'react';

export type RetryAttemptFlowNode = Node<{ readonly attempt: number; readonly nodeCount: number; readonly vertical: boolean }, 'retryAttempt'>;

/** Expanding goes through context so node data stays stable. */
export const ExpandAttemptContext = createContext<(attempt: number) => void>(() => undefined);

export const RetryAttemptCard = memo(function RetryAttemptCard({ data }: NodeProps<RetryAttemptFlowNode>) {
  const expand = useContext(ExpandAttemptContext);
  const { attempt, nodeCount, vertical } = data;
  const title = `retry attempt ${attempt}`;
  const detail = `${nodeCount} nodes, runs if verification fails`;
  return (
    <>
      <Handle type="target" position={vertical ? Position.Top : Position.Left} isConnectable={false} />
      <button
        type="button"
        className="plan-node plan-node-retry-attempt plan-node-status-planned"
        onKeyDown={(event) => {
          if (event.key === 'Enter' || event.key === ' ') {
            event.preventDefault();
            expand(attempt);
          }
        }}
        aria-label={`${title} (${detail}): show its nodes`}
        aria-expanded={false}
      >
        <span className="plan-node-head">
          <span className="plan-node-kind">retry</span>
          <span className="plan-node-id">{title}</span>
        </span>
        <span className="plan-node-what">{detail}</span>
        <span className="plan-node-foot">click to show its nodes</span>
      </button>
      <Handle type="source" position={vertical ? Position.Bottom : Position.Right} isConnectable={false} />
    </>
  );
});
