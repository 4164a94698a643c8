'use client';

import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { ErrorMessage } from '@/components/console/error-message';
import { useTRPC } from '@/components/providers/trpc-provider';
import { SCATTER_FIELDS } from '@/server/runtime/costmodel/calibration-fields';
import { BanditArmsPanel } from './bandit-arms-panel';
import { FIELD_LABELS } from './calibration-format';
import styles from './calibration.module.css';
import { EstimateScatter } from './estimate-scatter';
import { PlanCachePanel } from './plan-cache-panel';
import { StatisticsTable } from './statistics-table';
import { TrendChart } from './trend-chart';

/**
 * How far to trust the planner's numbers: every estimator's calibration per field and intent class
 * (pg_statistic style), coverage over time, estimate vs actual, and the learning loop's state.
 */
export function CalibrationPage() {
  const trpc = useTRPC();
  const report = useQuery(trpc.calibration.report.queryOptions({ buckets: 12, scatterLimit: 300 }));
  const [field, setField] = useState('tokens');
  const [intentClass, setIntentClass] = useState('all');
  const [estimator, setEstimator] = useState('all');
  const data = report.data;
  const fields = data ? [...new Set(data.statistics.map((row) => row.field))] : [];
  const intents = data ? [...new Set(data.statistics.map((row) => row.intentClass))] : [];
  const rows = (data?.statistics ?? []).filter((row) => (intentClass === 'all' || row.intentClass === intentClass) && (estimator === 'all' || row.estimator === estimator));
  const trend = (data?.trend ?? []).filter((series) => series.field === field && (estimator === 'all' || series.estimator === estimator));
  const scatter = (data?.scatter ?? []).filter((point) => point.field === field && (estimator === 'all' || point.estimator === estimator) && (intentClass === 'all' || point.intentClass === intentClass));

  return (
    <div className={styles.grid}>
      <section className="panel">
        <h1>Calibration</h1>
        <p className="muted">
          Every completed run records estimate vs actual per field, for the planner&apos;s heuristic-v1 and for learned-v2 (which corrects it from past runs). Coverage is the share of actuals inside the
          predicted p05–p95 interval: 0.90 is calibrated, lower means over-confident.
        </p>
        {report.error ? <ErrorMessage error={report.error} /> : null}
        {report.isPending ? <p className="muted">Loading calibration…</p> : null}
        {data ? (
          <>
            <div className={styles.filters}>
              <label className="field">
                <span>Estimator</span>
                <select value={estimator} onChange={(event) => setEstimator(event.target.value)}>
                  <option value="all">all</option>
                  {data.estimators.map((name) => (
                    <option key={name}>{name}</option>
                  ))}
                </select>
              </label>
              <label className="field">
                <span>Intent class</span>
                <select value={intentClass} onChange={(event) => setIntentClass(event.target.value)} data-testid="calibration-intent">
                  {intents.map((name) => (
                    <option key={name}>{name}</option>
                  ))}
                </select>
              </label>
              <label className="field">
                <span>Field (charts)</span>
                <select value={field} onChange={(event) => setField(event.target.value)}>
                  {fields.map((name) => (
                    <option key={name} value={name}>
                      {FIELD_LABELS[name] ?? name}
                    </option>
                  ))}
                </select>
              </label>
            </div>
            <p className="muted">{data.observations} observations.</p>
            <StatisticsTable rows={rows} />
          </>
        ) : null}
      </section>

      {data && data.observations > 0 ? (
        <section className="panel">
          <h2>{FIELD_LABELS[field] ?? field}: coverage over time and estimate vs actual</h2>
          <div className={styles.charts}>
            <TrendChart series={trend} title={`p05–p95 coverage of ${FIELD_LABELS[field] ?? field}`} />
            {(SCATTER_FIELDS as readonly string[]).includes(field) ? <EstimateScatter points={scatter} field={field} /> : <p className="muted">The scatter plots tokens, latency and cost (pick one above).</p>}
          </div>
        </section>
      ) : null}

      <BanditArmsPanel />

      <PlanCachePanel />
    </div>
  );
}
