import type { FieldStatistics } from '@/server/runtime/costmodel/calibration-types';
import { DataTable, type ColumnList } from '@/components/ui/data-table';
import { FIELD_LABELS, MIN_COVERAGE_SAMPLES, coverageCell, formatFieldValue } from './calibration-format';
import styles from './calibration.module.css';

const COLUMNS: ColumnList<FieldStatistics> = [
  { key: 'estimator', header: 'Estimator', cell: (row) => <code>{row.estimator}</code> },
  { key: 'field', header: 'Field', cell: (row) => FIELD_LABELS[row.field] ?? row.field },
  { key: 'intent', header: 'Intent class', cell: (row) => row.intentClass },
  { key: 'count', header: 'Count', numeric: true, cellAttributes: () => ({ 'data-testid': 'calibration-count' }), cell: (row) => row.count },
  { key: 'mae', header: 'MAE', numeric: true, cell: (row) => formatFieldValue(row.field, row.meanAbsoluteError) },
  {
    key: 'coverage',
    header: 'Coverage (p05–p95)',
    headerTitle: 'Share of actuals inside the predicted p05–p95 interval; 0.90 is calibrated',
    numeric: true,
    cellAttributes: (row) => {
      const cell = coverageCell(row.intervalCoverage, row.count);
      return { className: styles[cell.tone], title: cell.title };
    },
    cell: (row) => coverageCell(row.intervalCoverage, row.count).text,
  },
  { key: 'width', header: 'Median interval width', numeric: true, cell: (row) => formatFieldValue(row.field, row.intervalWidth) },
  { key: 'updated', header: 'Last updated', cell: (row) => (row.lastUpdated ? new Date(row.lastUpdated).toISOString().replace('T', ' ').slice(0, 19) : '—') },
];

/** The pg_statistic view: one row per estimator, field and intent class ('all' first). */
export function StatisticsTable({ rows }: { readonly rows: readonly FieldStatistics[] }) {
  if (rows.length === 0) return <p className="muted">No observations yet: every completed run adds one per estimated field.</p>;
  return (
    <>
      <DataTable
        rows={rows}
        columns={COLUMNS}
        rowKey={(row) => `${row.estimator}|${row.field}|${row.intentClass}`}
        rowAttributes={(row) => ({ 'data-field': row.field, 'data-intent': row.intentClass, 'data-estimator': row.estimator })}
        label="Calibration statistics"
        testId="calibration-statistics"
        scrollLabel="Calibration statistics"
      />
      <CoverageLegend />
    </>
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
