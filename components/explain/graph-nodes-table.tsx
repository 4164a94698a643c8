import type { AnalyzeSection, AnalyzedNode } from '@/server/runtime/explain/explain-types';
import type { ExecutionGraph, NodeEstimate } from '@/server/runtime/ir/graph';
import { ExplainSection } from './explain-section';
import { MisestimateCell } from './misestimate-cell';
import { nodeDetail } from './node-detail';
import { formatCalibration } from '@/server/runtime/explain/analyze-calibration';
import { formatSeconds, formatTokens, formatUsd } from './format';
import { TableScroll } from '@/components/layout/table-scroll';

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

export function GraphNodesTable({ graph, analyze }: { readonly graph: ExecutionGraph; readonly analyze?: AnalyzeSection }) {
  const analyzed = new Map<string, AnalyzedNode>((analyze?.nodes ?? []).map((node) => [node.nodeId, node]));
  const tags = topNodes(new Map(graph.nodes.map((node) => [node.id, analyzed.get(node.id)?.actual ?? node.estimate])));
  return (
    <ExplainSection title={analyze ? 'Execution graph (EXPLAIN ANALYZE)' : 'Execution graph'} note={`(${graph.nodes.length} nodes)`}>
      <TableScroll label="Graph nodes">
        <table className="data-table" aria-label="Graph nodes" data-testid="graph-nodes">
          <thead>
            <tr>
              <th scope="col">Node</th>
              <th scope="col">Kind</th>
              <th scope="col">Method / tier</th>
              <th scope="col">Inputs</th>
              {METRICS.map((metric) => (
                <th key={metric.key} scope="col" className="num">
                  est. {metric.label}
                </th>
              ))}
              {analyze ? (
                <>
                  <th scope="col">Status</th>
                  {METRICS.map((metric) => (
                    <th key={metric.key} scope="col" className="num">
                      actual {metric.label}
                    </th>
                  ))}
                </>
              ) : null}
            </tr>
          </thead>
          <tbody>
            {graph.nodes.map((node) => {
              const outcome = analyzed.get(node.id);
              return (
                <tr key={node.id} data-node-id={node.id}>
                  <th scope="row" title={node.note}>
                    <code>{node.id}</code>
                    {(tags.get(node.id) ?? []).map((tag) => (
                      <span key={tag} className="badge hot">
                        {tag}
                      </span>
                    ))}
                  </th>
                  <td>{node.kind}</td>
                  <td>{nodeDetail(node)}</td>
                  <td>{node.inputs.join(', ')}</td>
                  {METRICS.map((metric) => (
                    <td key={metric.key} className="num">
                      {node.estimate ? metric.format(node.estimate[metric.key]) : '—'}
                    </td>
                  ))}
                  {analyze ? (
                    <>
                      <td>{outcome ? `${outcome.status}${outcome.attempts > 1 ? ` (${outcome.attempts} attempts)` : ''}` : '—'}</td>
                      {METRICS.map((metric) => (
                        <MisestimateCell key={metric.key} actual={outcome?.actual?.[metric.key]} misestimate={outcome?.misestimate?.[metric.key]} format={metric.format} />
                      ))}
                    </>
                  ) : null}
                </tr>
              );
            })}
          </tbody>
          {analyze ? (
            <tfoot>
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
                </tr>
              ) : null}
            </tfoot>
          ) : null}
        </table>
      </TableScroll>
    </ExplainSection>
  );
}
