import { describe, expect, it } from 'vitest';
import type { Observation } from '../contracts/observation-store';
import { calibrationReport } from './calibration-report';

const observation = (estimator: string, minute: number, estimate: number, actual: number, intentClass: Observation['intentClass'] = 'incident'): Observation => ({
  runId: `r${minute}`, planHash: 'h', estimator, field: 'tokens', intentClass, estimate, low: estimate / 2, high: estimate * 2, actual,
  observedAt: new Date(Date.UTC(2026, 10, 30, 4, minute)).toISOString(),
});

describe('calibrationReport', () => {
  it('summarizes per estimator, field and intent class, buckets the trend over time and keeps the newest scatter points', () => {
    const rows = [
      observation('heuristic-v1', 0, 1000, 3000),
      observation('heuristic-v1', 1, 1000, 1500, 'conceptual'),
      observation('heuristic-v1', 30, 1000, 1000),
      observation('learned-v2', 0, 2500, 3000),
      observation('learned-v2', 30, 1200, 1000),
    ];
    const report = calibrationReport(rows, { buckets: 2, scatterLimit: 2 }, new Date('2026-11-30T05:00:00Z'));
    expect(report).toMatchObject({ observations: 5, estimators: ['heuristic-v1', 'learned-v2'], generatedAt: '2026-11-30T05:00:00.000Z' });
    expect(report.statistics.find((row) => row.estimator === 'heuristic-v1' && row.intentClass === 'all')).toMatchObject({ count: 3, intervalCoverage: 2 / 3 });
    expect(report.statistics.find((row) => row.estimator === 'heuristic-v1' && row.intentClass === 'incident')).toMatchObject({ count: 2, intervalCoverage: 0.5, meanAbsoluteError: 1000 });
    const v1Trend = report.trend.find((series) => series.estimator === 'heuristic-v1')!;
    expect(v1Trend.buckets.map((bucket) => [bucket.count, bucket.intervalCoverage])).toEqual([[2, 0.5], [1, 1]]);
    expect(report.scatter.filter((point) => point.estimator === 'heuristic-v1').map((point) => point.actual)).toEqual([1500, 1000]);
  });

  it('is empty, not failing, with no observations', () => {
    expect(calibrationReport([])).toMatchObject({ observations: 0, statistics: [], trend: [], scatter: [] });
  });
});
