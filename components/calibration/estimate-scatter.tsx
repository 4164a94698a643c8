import type { ScatterPoint } from '@/server/runtime/costmodel/calibration-types';
import { FIELD_LABELS, SCATTER_FLOORS, formatFieldValue, logScale } from './calibration-format';
import styles from './calibration.module.css';

const SIZE = 320;
const PAD = 44;

/** Estimate (x) against actual (y) on log axes; on the diagonal is perfect, dots outside their interval are red. */
export function EstimateScatter({ points, field }: { readonly points: readonly ScatterPoint[]; readonly field: string }) {
  if (points.length === 0) return <p className="muted">No {FIELD_LABELS[field] ?? field} observations yet.</p>;
  const floor = SCATTER_FLOORS[field] ?? 1e-6;
  const scale = logScale(points.flatMap((point) => [point.estimate, point.actual]), floor);
  const plot = SIZE - 2 * PAD;
  const x = (value: number) => PAD + scale.position(value) * plot;
  const y = (value: number) => SIZE - PAD - scale.position(value) * plot;
  const inside = (point: ScatterPoint) => point.actual >= point.low && point.actual <= point.high;
  return (
    <figure className={styles.chart}>
      <svg viewBox={`0 0 ${SIZE} ${SIZE}`} role="img" aria-label={`estimate vs actual ${field}`} data-testid={`calibration-scatter-${field}`}>
        {scale.ticks().map((tick) => (
          <g key={tick}>
            <line x1={x(tick)} x2={x(tick)} y1={PAD} y2={SIZE - PAD} className={styles.gridLine} />
            <line x1={PAD} x2={SIZE - PAD} y1={y(tick)} y2={y(tick)} className={styles.gridLine} />
            <text x={x(tick)} y={SIZE - PAD + 14} textAnchor="middle" className={styles.axisText}>
              {formatFieldValue(field, tick)}
            </text>
            <text x={PAD - 4} y={y(tick) + 4} textAnchor="end" className={styles.axisText}>
              {formatFieldValue(field, tick)}
            </text>
          </g>
        ))}
        <line x1={x(scale.min)} y1={y(scale.min)} x2={x(scale.max)} y2={y(scale.max)} className={styles.diagonal} />
        {points.map((point, index) => (
          <circle key={index} cx={x(point.estimate)} cy={y(point.actual)} r={2.5} className={inside(point) ? styles.dotInside : styles.dotOutside}>
            <title>{`${point.estimator} ${point.intentClass}: estimate ${formatFieldValue(field, point.estimate)} [${formatFieldValue(field, point.low)}–${formatFieldValue(field, point.high)}], actual ${formatFieldValue(field, point.actual)}`}</title>
          </circle>
        ))}
        <text x={SIZE / 2} y={SIZE - 6} textAnchor="middle" className={styles.axisText}>
          estimate
        </text>
        <text x={10} y={SIZE / 2} transform={`rotate(-90 10 ${SIZE / 2})`} textAnchor="middle" className={styles.axisText}>
          actual
        </text>
      </svg>
      <figcaption>
        {FIELD_LABELS[field] ?? field}: {points.length} runs (log axes; red = actual outside its p05–p95 interval)
      </figcaption>
    </figure>
  );
}
