'use client';
/**
 * The planned Execution Graph (not one rebuilt from spans), drawn with React Flow over a dagre
 * layout. Layout and node objects are memoised on the graph and the shading metric only, so
 * selecting a node re-renders nothing but the highlight and the detail panel.
 */
import { Background, Controls, MiniMap, ReactFlow, type Edge } from '@xyflow/react';
import '@xyflow/react/dist/style.css';
import { useMemo, useState } from 'react';
import type { ExecutionGraph } from '@/server/runtime/ir/graph';
import { graphEdges, layoutGraph, NODE_HEIGHT, NODE_WIDTH } from './graph-layout';
import { NodeSelectContext, PLAN_NODE_TYPES, type PlanFlowNode } from './plan-node-card';
import { shade, type Metric, type PlanNodeView } from './plan-metrics';

/** Above this many nodes React Flow mounts only the nodes in view (measured: 200 nodes mount in well under a second either way). */
const VIRTUALISE_ABOVE = 120;
/** A minimap helps only when the graph does not fit the view at a readable zoom. */
const MINIMAP_FROM = 30;
/** Small plans get a shorter canvas instead of a band of empty space. */
const SMALL_GRAPH = 16;

interface PlanGraphProps {
  readonly graph: ExecutionGraph;
  readonly views: readonly PlanNodeView[];
  readonly metric: Metric;
  readonly selectedId?: string;
  readonly onSelect: (nodeId: string) => void;
  readonly label: string;
  readonly compact?: boolean;
  /** Called once React Flow has fitted the view: the graph is on screen and clickable. */
  readonly onReady?: () => void;
}

export function PlanGraph({ graph, views, metric, selectedId, onSelect, label, compact = false, onReady }: PlanGraphProps) {
  const [ready, setReady] = useState(false);
  const positions = useMemo(() => layoutGraph(graph), [graph]);
  const nodes = useMemo<PlanFlowNode[]>(
    // Fixed dimensions let React Flow fit the view and cull off-screen nodes before measuring any.
    () => views.map((view) => ({ id: view.node.id, type: view.node.kind, position: positions.get(view.node.id) ?? { x: 0, y: 0 }, width: NODE_WIDTH, height: NODE_HEIGHT, data: { view, metric } })),
    [views, positions, metric],
  );
  const edges = useMemo<Edge[]>(() => graphEdges(graph).map((edge) => ({ ...edge, type: 'smoothstep' })), [graph]);
  const colours = useMemo(() => new Map(views.map((view) => [view.node.id, shade(view.intensity[metric], metric)])), [views, metric]);
  const safeId = selectedId?.replace(/["\\]/g, '');
  return (
    <div
      className={`plan-graph${compact ? ' compact' : ''}${graph.nodes.length <= SMALL_GRAPH ? ' small' : ''}`}
      role="region"
      aria-label={label}
      data-testid="plan-graph"
      data-node-count={graph.nodes.length}
      data-ready={ready || undefined}
    >
      {safeId ? <style>{`.plan-graph .react-flow__node[data-id="${safeId}"] .plan-node { outline: 3px solid var(--color-accent); outline-offset: 2px; }`}</style> : null}
      <NodeSelectContext.Provider value={onSelect}>
        <ReactFlow
          nodes={nodes}
          edges={edges}
          nodeTypes={PLAN_NODE_TYPES}
          onInit={() => {
            setReady(true);
            onReady?.();
          }}
          // Also what makes React Flow give nodes pointer events when they are neither draggable nor selectable.
          onNodeClick={(_event, node) => onSelect(node.id)}
          fitView
          fitViewOptions={{ maxZoom: 1, minZoom: 0.2 }}
          minZoom={0.05}
          nodesDraggable={false}
          nodesConnectable={false}
          elementsSelectable={false}
          nodesFocusable={false}
          edgesFocusable={false}
          onlyRenderVisibleElements={graph.nodes.length > VIRTUALISE_ABOVE}
        >
          <Background gap={24} />
          <Controls showInteractive={false} />
          {compact || graph.nodes.length < MINIMAP_FROM ? null : <MiniMap pannable zoomable ariaLabel="Execution graph overview" nodeColor={(node) => colours.get(node.id) ?? '#eee'} nodeStrokeWidth={2} />}
        </ReactFlow>
      </NodeSelectContext.Provider>
    </div>
  );
}
