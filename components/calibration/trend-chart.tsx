import type { TrendSeries } from '@/server/runtime/costmodel/calibration-types';
import { MIN_COVERAGE_SAMPLES } from './calibration-format';
import styles from './calibration.module.css';

const WIDTH = 560;
const HEIGHT = 180;
const PAD = { left: 44, right: 12, top: 12, bottom: 28 };
// Each at least 4.5:1 on white: the legend names the estimators in these colours, so they are text
// (WCAG 1.4.3), not only lines; amber-600 and emerald-600 were 3.2:1 and 3.8:1.
const COLORS = ['#2563eb', '#b45309', '#047857', '#9333ea'];

/**
 * Interval coverage per time bucket, one line per estimator, with the 0.85–0.95 target band shaded.
 * Plain SVG: the numbers are few and a chart library would be most of the page's JavaScript.
 */
export function TrendChart({ series, title }: { readonly series: readonly TrendSeries[]; readonly title: string }) {
  const starts = series.flatMap((entry) => entry.buckets.map((bucket) => Date.parse(bucket.start)));
  if (starts.length === 0) return <p className="muted">No trend yet.</p>;
  const first = Math.min(...starts);
  const span = Math.max(Math.max(...starts) - first, 1);
  const x = (time: number) => PAD.left + ((time - first) / span) * (WIDTH - PAD.left - PAD.right);
  const y = (coverage: number) => PAD.top + (1 - coverage) * (HEIGHT - PAD.top - PAD.bottom);
  return (
    <figure className={styles.chart}>
      <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} role="img" aria-label={title} data-testid="calibration-trend">
        <rect x={PAD.left} y={y(0.95)} width={WIDTH - PAD.left - PAD.right} height={y(0.85) - y(0.95)} className={styles.targetBand} />
        {[0, 0.5, 0.9, 1].map((tick) => (
          <g key={tick}>
            <line x1={PAD.left} x2={WIDTH - PAD.right} y1={y(tick)} y2={y(tick)} className={styles.gridLine} />
            <text x={PAD.left - 6} y={y(tick) + 4} textAnchor="end" className={styles.axisText}>
              {tick.toFixed(tick === 0.9 ? 2 : 1)}
            </text>
          </g>
        ))}
        <text x={PAD.left} y={HEIGHT - 8} className={styles.axisText}>
          {new Date(first).toISOString().slice(5, 16).replace('T', ' ')}
        </text>
        <text x={WIDTH - PAD.right} y={HEIGHT - 8} textAnchor="end" className={styles.axisText}>
          {new Date(first + span).toISOString().slice(5, 16).replace('T', ' ')}
        </text>
        {series.map((entry, index) => (
          <g key={entry.estimator} stroke={COLORS[index % COLORS.length]} fill={COLORS[index % COLORS.length]}>
            <polyline fill="none" strokeWidth={2} points={entry.buckets.map((bucket) => `${x(Date.parse(bucket.start))},${y(bucket.intervalCoverage)}`).join(' ')} />
            {entry.buckets.map((bucket) => (
              <circle key={bucket.start} cx={x(Date.parse(bucket.start))} cy={y(bucket.intervalCoverage)} r={3} className={bucket.count < MIN_COVERAGE_SAMPLES ? styles.dotSparse : undefined}>
                <title>{`${entry.estimator} ${bucket.start}: coverage ${bucket.intervalCoverage.toFixed(2)}, n=${bucket.count}${bucket.count < MIN_COVERAGE_SAMPLES ? ' (too few samples to judge)' : ''}`}</title>
              </circle>
            ))}
          </g>
        ))}
      </svg>
      <figcaption>
        {title}:{' '}
        {series.map((entry, index) => (
          <span key={entry.estimator} className={styles.legendItem} style={{ color: COLORS[index % COLORS.length] }}>
            ● {entry.estimator}
          </span>
        ))}{' '}
        (shaded: the 0.85–0.95 target; hollow: fewer than {MIN_COVERAGE_SAMPLES} runs in that bucket, too few to judge)
      </figcaption>
    </figure>
  );
}
