import { sql } from 'drizzle-orm';
import type { Database } from '../../../db/client';
import { SCATTER_FIELDS } from '../../runtime/costmodel/calibration-fields';
import type { CalibrationReport, CalibrationReportOptions, FieldStatistics, ScatterPoint, TrendSeries } from '../../runtime/costmodel/calibration-types';
import type { EstimatedField, IntentClass } from '../../runtime/types';

/**
 * The /calibration report aggregated in the database (issue 13, point 5): it used to load every
 * row of cost_observations into the process (ten per run, forever) to compute a few hundred
 * figures. Same definitions as runtime/costmodel/calibration-report.ts, which stays the reference
 * (the test compares both on one fixture): percentile_cont is the type-7 quantile the runtime's
 * median and p05/p95 use, a trend bucket is max(60 s, ⌈(span + 1 ms) / buckets⌉) wide from the
 * series' first observation, and the scatter keeps each series' newest scatterLimit points.
 */

const toNumber = (value: unknown): number => Number(value);
const toIso = (value: unknown): string => (value instanceof Date ? value : new Date(String(value))).toISOString();
/** The runtime sorts series by "estimator|field" with localeCompare; so does this. */
const seriesOrder = (left: { estimator: string; field: string }, right: { estimator: string; field: string }) => `${left.estimator}|${left.field}`.localeCompare(`${right.estimator}|${right.field}`);
const millis = sql`floor(extract(epoch from observed_at) * 1000)::float8`;
const fieldFigures = sql`
  count(*)::int as count,
  sum(abs(actual - estimate)) / count(*) as mae,
  count(*) filter (where actual >= low and actual <= high)::float8 / count(*) as coverage,
  percentile_cont(0.5) within group (order by high - low) as width`;

interface FigureRow extends Record<string, unknown> {
  readonly estimator: string;
  readonly field: string;
  readonly count: number;
  readonly mae: number;
  readonly coverage: number;
  readonly width: number;
}

async function statistics(database: Database): Promise<FieldStatistics[]> {
  const rows = await database.query<FigureRow & { intent_class: string; p05: number; p95: number; last: unknown }>(sql`
    select estimator, field, case when grouping(intent_class) = 1 then 'all' else intent_class end as intent_class, ${fieldFigures},
      percentile_cont(0.05) within group (order by actual - estimate) as p05,
      percentile_cont(0.95) within group (order by actual - estimate) as p95,
      max(observed_at) as last
    from cost_observations
    group by grouping sets ((estimator, field), (estimator, field, intent_class))`);
  return rows
    .map((row) => ({
      estimator: row.estimator,
      field: row.field as EstimatedField,
      intentClass: row.intent_class as IntentClass | 'all',
      count: toNumber(row.count),
      meanAbsoluteError: toNumber(row.mae),
      intervalCoverage: toNumber(row.coverage),
      intervalWidth: toNumber(row.width),
      p90Interval: [toNumber(row.p05), toNumber(row.p95)] as const,
      lastUpdated: toIso(row.last),
    }))
    .sort((a, b) => a.estimator.localeCompare(b.estimator) || a.field.localeCompare(b.field) || a.intentClass.localeCompare(b.intentClass));
}

async function trend(database: Database, bucketCount: number): Promise<TrendSeries[]> {
  const rows = await database.query<FigureRow & { first: number; size: number; slot: number }>(sql`
    with timed as (select *, ${millis} as at from cost_observations),
    sized as (
      select estimator, field, min(at) as first, greatest(60000, ceil((max(at) - min(at) + 1) / ${bucketCount}::float8)) as size
      from timed group by estimator, field)
    select timed.estimator, timed.field, sized.first, sized.size, floor((timed.at - sized.first) / sized.size)::int as slot, ${fieldFigures}
    from timed join sized on sized.estimator = timed.estimator and sized.field = timed.field
    group by timed.estimator, timed.field, sized.first, sized.size, slot
    order by slot`);
  const series = new Map<string, TrendSeries & { buckets: TrendSeries['buckets'][number][] }>();
  for (const row of rows) {
    const key = `${row.estimator}|${row.field}`;
    const entry = series.get(key) ?? { estimator: row.estimator, field: row.field as EstimatedField, buckets: [] };
    series.set(key, entry);
    entry.buckets.push({
      start: new Date(toNumber(row.first) + toNumber(row.slot) * toNumber(row.size)).toISOString(),
      count: toNumber(row.count),
      meanAbsoluteError: toNumber(row.mae),
      intervalCoverage: toNumber(row.coverage),
      intervalWidth: toNumber(row.width),
    });
  }
  return [...series.values()].sort(seriesOrder);
}

async function scatter(database: Database, limit: number): Promise<ScatterPoint[]> {
  const rows = await database.query<{ estimator: string; field: string; intent_class: string; estimate: number; actual: number; low: number; high: number; observed_at: unknown }>(sql`
    select estimator, field, intent_class, estimate, actual, low, high, observed_at from (
      select *, row_number() over (partition by estimator, field order by observed_at desc, id desc) as newest
      from cost_observations where field in (select jsonb_array_elements_text(${JSON.stringify(SCATTER_FIELDS)}::jsonb))
    ) ranked
    where newest <= ${limit}
    order by observed_at, id`);
  const points = rows.map((row) => ({
    estimator: row.estimator,
    field: row.field as EstimatedField,
    intentClass: row.intent_class as IntentClass,
    estimate: toNumber(row.estimate),
    actual: toNumber(row.actual),
    low: toNumber(row.low),
    high: toNumber(row.high),
    observedAt: toIso(row.observed_at),
  }));
  // Stable: within a series the points keep their oldest-first order.
  return points.sort(seriesOrder);
}

export async function calibrationReportInDatabase(database: Database, options: CalibrationReportOptions = {}, now = new Date()): Promise<CalibrationReport> {
  const [totals] = await database.query<{ count: number; estimators: string[] | null }>(sql`
    select count(*)::int as count, array_agg(distinct estimator) as estimators from cost_observations`);
  return {
    generatedAt: now.toISOString(),
    observations: toNumber(totals?.count ?? 0),
    estimators: [...(totals?.estimators ?? [])].sort(),
    statistics: await statistics(database),
    trend: await trend(database, options.buckets ?? 12),
    scatter: await scatter(database, options.scatterLimit ?? 300),
  };
}
