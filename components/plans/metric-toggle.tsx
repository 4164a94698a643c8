import type { NodeEstimate } from '@/server/runtime/ir/graph';
import { formatSeconds, formatTokens, formatUsd } from '@/components/explain/format';
import { METRICS, METRIC_LABELS, shade, type Metric } from './plan-metrics';
// The swatch style lives with the plan charts; the compare page shows this toggle without them.
import '@/components/explain/plan-charts.css';

const FORMAT: Readonly<Record<Metric, (value: number) => string>> = { costUsd: formatUsd, latencySeconds: formatSeconds, tokens: formatTokens };

/** "Shade nodes by": a labelled radio group, so it is one Tab stop and arrow keys switch. */
export function MetricToggle({ value, onChange, totals }: { readonly value: Metric; readonly onChange: (metric: Metric) => void; readonly totals?: NodeEstimate }) {
  return (
    <fieldset className="metric-toggle" data-testid="metric-toggle">
      <legend>Shade nodes by</legend>
      {METRICS.map((metric) => (
        <label key={metric} className={metric === value ? 'active' : undefined}>
          <input type="radio" name="plan-metric" value={metric} checked={metric === value} onChange={() => onChange(metric)} />
          <span className="score-swatch" style={{ background: shade(1, metric) }} /> {METRIC_LABELS[metric]}
          {totals ? <span className="muted"> ({FORMAT[metric](totals[metric])})</span> : null}
        </label>
      ))}
    </fieldset>
  );
}
