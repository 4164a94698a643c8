import { describe, expect, it } from 'vitest';
import { type MetricSample, summarizeSeries } from './metric-series-summary';

const series = (values: readonly number[], threshold?: number): MetricSample[] =>
  values.map((value, index) => ({ row: index + 1, timestamp: `t${index}`, value, threshold }));

describe('summarizeSeries', () => {
  it('calls a sawtooth near its limit flat, and reports the approach and the reset', () => {
    const summary = summarizeSeries('api memory', 'MiB', series([250, 254, 255, 253, 96, 251, 254, 249], 256));
    expect(summary.trend).toBe('flat');
    expect(summary.text).toContain('Never above threshold.');
    expect(summary.text).toContain('At or above 90% of threshold in 7 samples, first 250 MiB at t0 (row 1).');
    expect(summary.text).toContain('Sharp drops (over 40% below the previous sample): 1, first 96 MiB at t4 (row 5).');
  });

  it('reports the first crossing of a threshold and a rising trend', () => {
    const summary = summarizeSeries('api p95', 'ms', series([180, 190, 185, 450, 620, 900], 500));
    expect(summary).toMatchObject({ trend: 'rising', min: 180, max: 900, last: 900 });
    expect(summary.text).toContain('Above the threshold of 500 ms in 2 of 6 samples, first 620 ms at t4 (row 5).');
    // Worded as questions ask: "what was the highest reading?", "how low did it go?".
    expect(summary.text).toContain('Lowest 180 ms at t0 (row 1); highest 900 ms at t5 (row 6); last 900 ms at t5 (row 6).');
  });

  it('ignores halvings of negligible values and falls back to a baseline without a threshold', () => {
    const summary = summarizeSeries('api errors', '%', series([0.02, 0.01, 0.03, 2.8, 1.9, 0.6]));
    expect(summary.text).toContain('Sharp drops (over 40% below the previous sample): 1, first 0.6% at t5 (row 6).');
    expect(summary.text).toContain('Baseline 0.02%; at twice the baseline or more in 3 samples, first 2.8% at t3 (row 4).');
  });

  it('names a regular cadence and the unit in words, for the questions that use them', () => {
    const hourly = (values: readonly number[]): MetricSample[] =>
      values.map((value, index) => ({ row: index + 1, timestamp: new Date(Date.UTC(2026, 3, 14, 4 + index)).toISOString(), value, threshold: 5 }));
    const summary = summarizeSeries('eta-api static_fallback_pct', '%', hourly([0.3, 0.4, 19.6, 33.9, 0.5]));
    expect(summary.description).toBe('hourly, a percentage');
    expect(summary.text).toContain('Metric series eta-api static_fallback_pct (%, a percentage): 5 hourly samples from');
    // Irregular gaps name no cadence; an unknown unit gets no words.
    const irregular = summarizeSeries('model age', 'widgets', [0, 3, 9].map((hour, index) => ({ row: index + 1, timestamp: new Date(Date.UTC(2026, 2, 24, hour)).toISOString(), value: hour })));
    expect(irregular.description).toBe('');
    expect(irregular.text).toContain('(widgets): 3 samples from');
  });
});
