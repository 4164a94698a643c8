import type { PlanCacheStatsBucket } from '@/server/runtime/contracts/plan-cache';
import styles from './calibration.module.css';

const WIDTH = 560;
const HEIGHT = 140;
const PAD = { left: 44, right: 12, top: 10, bottom: 24 };

/**
 * Plan-cache hit rate over time as bars, one per bucket of PlanCachePlugin.stats() (procedure
 * planCache.stats; plan-cache-panel.tsx fetches it).
 */
export function PlanCacheHitRate({ buckets }: { readonly buckets: readonly PlanCacheStatsBucket[] }) {
  if (buckets.length === 0) return <p className="muted">No plan-cache lookups in this window.</p>;
  const slot = (WIDTH - PAD.left - PAD.right) / buckets.length;
  const y = (rate: number) => PAD.top + (1 - rate) * (HEIGHT - PAD.top - PAD.bottom);
  return (
    <figure className={styles.chart}>
      <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} role="img" aria-label="plan-cache hit rate over time" data-testid="plan-cache-hit-rate">
        {[0, 0.5, 1].map((tick) => (
          <g key={tick}>
            <line x1={PAD.left} x2={WIDTH - PAD.right} y1={y(tick)} y2={y(tick)} className={styles.gridLine} />
            <text x={PAD.left - 6} y={y(tick) + 4} textAnchor="end" className={styles.axisText}>
              {tick.toFixed(1)}
            </text>
          </g>
        ))}
        {buckets.map((bucket, index) => (
          <rect key={bucket.start} x={PAD.left + index * slot + 1} y={y(bucket.hitRate)} width={Math.max(1, slot - 2)} height={y(0) - y(bucket.hitRate)} fill="#059669">
            <title>{`${bucket.start}: ${bucket.hits}/${bucket.lookups} hits (${(bucket.hitRate * 100).toFixed(0)}%), ${bucket.nearMisses} near misses`}</title>
          </rect>
        ))}
      </svg>
      <figcaption>Plan-cache hit rate per time bucket (hover a bar for hits / lookups)</figcaption>
    </figure>
  );
}
