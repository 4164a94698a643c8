import type { AnalyzeSection, AnalyzedNode } from '@/server/runtime/explain/explain-types';
import type { ExecutionGraph, GraphNode, NodeEstimate } from '@/server/runtime/ir/graph';
import { ExplainSection } from './explain-section';
import { MisestimateCell, MisestimateFigure, misestimateAttributes } from './misestimate-cell';
import { nodeDetail } from './node-detail';
import { formatCalibration } from '@/server/runtime/explain/analyze-calibration';
import { type BudgetLimitsShown, budgetFigures } from '@/server/runtime/explain/budget-text';
import { formatSeconds, formatTokens, formatUsd } from './format';
import { DataTable, type ColumnList } from '@/components/ui/data-table';

const METRICS = [
  { key: 'tokens', label: 'tokens', format: formatTokens, tag: 'most tokens' },
  { key: 'costUsd', label: 'cost', format: formatUsd, tag: 'costliest' },
  { key: 'latencySeconds', label: 'latency', format: formatSeconds, tag: 'slowest' },
] as const;

/** Tags the node with the largest figure per metric (actuals when ANALYZE ran), as pev2 does. */
function topNodes(figures: ReadonlyMap<string, NodeEstimate | undefined>): ReadonlyMap<string, readonly string[]> {
  const tags = new Map<string, string[]>();
  for (const metric of METRICS) {
    let best: { id: string; value: number } | undefined;
    for (const [id, figure] of figures) {
      const value = figure?.[metric.key] ?? 0;
      if (value > 0 && (!best || value > best.value)) best = { id, value };
    }
    if (best) tags.set(best.id, [...(tags.get(best.id) ?? []), metric.tag]);
  }
  return tags;
}

/** The node columns, then (under ANALYZE) status and actuals with their misestimate factors. */
function graphColumns(analyzed: ReadonlyMap<string, AnalyzedNode>, tags: ReadonlyMap<string, readonly string[]>, analyze: boolean, limits: BudgetLimitsShown | undefined): ColumnList<GraphNode> {
  return [
    {
      key: 'node',
      header: 'Node',
      rowHeader: true,
      cellAttributes: (node) => ({ title: node.note }),
      cell: (node) => (
        <>
          <code>{node.id}</code>
          {(tags.get(node.id) ?? []).map((tag) => (
            <span key={tag} className="badge hot">
              {tag}
            </span>
          ))}
        </>
      ),
    },
    { key: 'kind', header: 'Kind', cell: (node) => node.kind },
    { key: 'detail', header: 'Method / tier', cell: (node) => nodeDetail(node) },
    { key: 'inputs', header: 'Inputs', cell: (node) => node.inputs.join(', ') },
    ...METRICS.map((metric) => ({ key: `est-${metric.key}`, header: `est. ${metric.label}`, numeric: true, cell: (node: GraphNode) => (node.estimate ? metric.format(node.estimate[metric.key]) : '—') })),
    analyze && {
      key: 'status',
      header: 'Status',
      cell: (node: GraphNode) => {
        const outcome = analyzed.get(node.id);
        return outcome ? `${outcome.status}${outcome.attempts > 1 ? ` (${outcome.attempts} attempts)` : ''}` : '—';
      },
    },
    ...METRICS.map(
      (metric) =>
        analyze && {
          key: `actual-${metric.key}`,
          header: `actual ${metric.label}`,
          numeric: true,
          cellAttributes: (node: GraphNode) => misestimateAttributes({ actual: analyzed.get(node.id)?.actual?.[metric.key], misestimate: analyzed.get(node.id)?.misestimate?.[metric.key] }),
          cell: (node: GraphNode) => <MisestimateFigure actual={analyzed.get(node.id)?.actual?.[metric.key]} misestimate={analyzed.get(node.id)?.misestimate?.[metric.key]} format={metric.format} />,
        },
    ),
    analyze && {
      key: 'budget',
      header: 'run budget used',
      cell: (node: GraphNode) => {
        const spent = analyzed.get(node.id)?.budget;
        return spent ? <BudgetUsed spent={spent} limits={limits} /> : '—';
      },
    },
  ];
}

/** The run's spend once the node finished, each figure against the request's limit when it set one. */
function BudgetUsed({ spent, limits }: { readonly spent: NonNullable<AnalyzedNode['budget']>; readonly limits: BudgetLimitsShown | undefined }) {
  return (
    <span className="budget-used">
      {budgetFigures(spent, limits).map((entry) => (
        <span key={entry.metric} className={entry.share !== undefined && entry.share > 1 ? 'over' : undefined}>
          {entry.text}
        </span>
      ))}
    </span>
  );
}

/** The latest budget snapshot of the run: its spend when it ended. */
const finalBudget = (analyze: AnalyzeSection) => analyze.nodes.reduce<AnalyzedNode['budget']>((latest, node) => (node.budget && (!latest || node.budget.elapsedSeconds >= latest.elapsedSeconds) ? node.budget : latest), undefined);

/** Plan totals and, when past runs exist, how the estimator has done on this intent class. */
function AnalyzeFooter({ analyze }: { readonly analyze: AnalyzeSection }) {
  return (
    <>
      <tr>
        <th scope="row" colSpan={4}>
          Total
        </th>
        {METRICS.map((metric) => (
          <td key={metric.key} className="num">
            {metric.format(analyze.totals.estimate[metric.key])}
          </td>
        ))}
        <td>{analyze.status}</td>
        {METRICS.map((metric) => (
          <MisestimateCell key={metric.key} actual={analyze.totals.actual[metric.key]} misestimate={analyze.totals.misestimate?.[metric.key]} format={metric.format} />
        ))}
        <td>{finalBudget(analyze) ? <BudgetUsed spent={finalBudget(analyze)!} limits={analyze.limits} /> : '—'}</td>
      </tr>
      {analyze.calibration ? (
        <tr data-testid="graph-calibration">
          <th scope="row" colSpan={4 + METRICS.length} title="How the estimator has done on past runs of this intent class: share of actuals inside its p05–p95 interval, mean absolute error, runs">
            Estimator calibration ({analyze.calibration.tokens.estimator}, {analyze.calibration.tokens.intentClass})
          </th>
          <td>past runs</td>
          {METRICS.map((metric) => (
            <td key={metric.key} className="num muted">
              {formatCalibration(analyze.calibration![metric.key], metric.format)}
            </td>
          ))}
          <td />
        </tr>
      ) : null}
    </>
  );
}

export function GraphNodesTable({ graph, analyze }: { readonly graph: ExecutionGraph; readonly analyze?: AnalyzeSection }) {
  const analyzed = new Map<string, AnalyzedNode>((analyze?.nodes ?? []).map((node) => [node.nodeId, node]));
  const tags = topNodes(new Map(graph.nodes.map((node) => [node.id, analyzed.get(node.id)?.actual ?? node.estimate])));
  return (
    <ExplainSection title={analyze ? 'Execution graph (EXPLAIN ANALYZE)' : 'Execution graph'} note={`(${graph.nodes.length} nodes)`}>
      <DataTable
        rows={graph.nodes}
        columns={graphColumns(analyzed, tags, Boolean(analyze), analyze?.limits)}
        rowKey={(node) => node.id}
        rowAttributes={(node) => ({ 'data-node-id': node.id })}
        label="Graph nodes"
        testId="graph-nodes"
        scrollLabel="Graph nodes"
        footer={analyze ? <AnalyzeFooter analyze={analyze} /> : null}
      />
    </ExplainSection>
  );
}
