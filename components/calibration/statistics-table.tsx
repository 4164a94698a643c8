import type { FieldStatistics } from '@/server/runtime/costmodel/calibration-types';
import { TableScroll } from '@/components/layout/table-scroll';
import { FIELD_LABELS, MIN_COVERAGE_SAMPLES, coverageCell, formatFieldValue } from './calibration-format';
import styles from './calibration.module.css';

/** The pg_statistic view: one row per estimator, field and intent class ('all' first). */
export function StatisticsTable({ rows }: { readonly rows: readonly FieldStatistics[] }) {
  if (rows.length === 0) return <p className="muted">No observations yet: every completed run adds one per estimated field.</p>;
  return (
    <TableScroll label="Calibration statistics">
      <table className="data-table" data-testid="calibration-statistics" aria-label="Calibration statistics">
        <thead>
          <tr>
            <th scope="col">Estimator</th>
            <th scope="col">Field</th>
            <th scope="col">Intent class</th>
            <th scope="col" className="num">Count</th>
            <th scope="col" className="num">MAE</th>
            <th scope="col" className="num" title="Share of actuals inside the predicted p05–p95 interval; 0.90 is calibrated">
              Coverage (p05–p95)
            </th>
            <th scope="col" className="num">Median interval width</th>
            <th scope="col">Last updated</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={`${row.estimator}|${row.field}|${row.intentClass}`} data-field={row.field} data-intent={row.intentClass} data-estimator={row.estimator}>
              <td>
                <code>{row.estimator}</code>
              </td>
              <td>{FIELD_LABELS[row.field] ?? row.field}</td>
              <td>{row.intentClass}</td>
              <td className="num" data-testid="calibration-count">
                {row.count}
              </td>
              <td className="num">{formatFieldValue(row.field, row.meanAbsoluteError)}</td>
              <CoverageTd coverage={row.intervalCoverage} count={row.count} />
              <td className="num">{formatFieldValue(row.field, row.intervalWidth)}</td>
              <td>{row.lastUpdated ? new Date(row.lastUpdated).toISOString().replace('T', ' ').slice(0, 19) : '—'}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <CoverageLegend />
    </TableScroll>
  );
}

function CoverageTd({ coverage, count }: { readonly coverage: number; readonly count: number }) {
  const cell = coverageCell(coverage, count);
  return (
    <td className={`num ${styles[cell.tone]}`} title={cell.title}>
      {cell.text}
    </td>
  );
}

/** What the coverage colours mean, and why a sparse cell shows no figure. */
function CoverageLegend() {
  return (
    <ul className={styles.legend} aria-label="Coverage legend">
      <li>
        <span className={styles.good}>0.85–0.95</span> calibrated (target 0.90)
      </li>
      <li>
        <span className={styles.warn}>0.70–0.85 or above 0.95</span> intervals somewhat too narrow, or wider than needed
      </li>
      <li>
        <span className={styles.bad}>below 0.70</span> over-confident: actuals often fall outside the interval
      </li>
      <li>
        <span className={styles.few}>too few samples (n = …)</span> fewer than {MIN_COVERAGE_SAMPLES} runs in this cell, the number the learned estimator itself needs for an
        interval; MAE and width are shown, coverage is not judged yet
      </li>
    </ul>
  );
}
