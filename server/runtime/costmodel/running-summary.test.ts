import { describe, expect, it } from 'vitest';
import type { Observation } from '../contracts/observation-store';
import { summarize } from './cost-estimator';
import { RunningSummary } from './running-summary';

/** A deterministic spread of estimates, actuals and intervals, with repeats and ties. */
function observations(count: number, seed: number): Observation[] {
  let state = seed;
  const next = () => ((state = (state * 1103515245 + 12345) % 2147483648) / 2147483648);
  return Array.from({ length: count }, (_, index) => {
    const estimate = Math.round(next() * 20) / 4;
    const spread = Math.round(next() * 8) / 4;
    return { runId: `r${index}`, planHash: 'p', estimator: 'heuristic-v1', field: 'latencySeconds', intentClass: 'incident', estimate, low: estimate - spread, high: estimate + spread, actual: Math.round(next() * 24) / 4, observedAt: new Date(Date.UTC(2026, 0, 1, 0, 0, (index * 7919) % 600)).toISOString() };
  });
}

describe('a running calibration summary', () => {
  it('reports what summarize reports over the same observations, built at once or one by one', () => {
    for (const [count, seed] of [[0, 1], [1, 2], [2, 3], [57, 4], [400, 5]] as const) {
      const list = observations(count, seed);
      const expected = summarize('latencySeconds', 'incident', list, 'heuristic-v1');
      const added = new RunningSummary();
      for (const observation of list) added.add(observation);
      for (const summary of [RunningSummary.from(list), added]) {
        const figures = summary.statistics('latencySeconds', 'incident', 'heuristic-v1');
        expect({ ...figures, meanAbsoluteError: undefined }).toEqual({ ...expected, meanAbsoluteError: undefined });
        expect(figures.meanAbsoluteError).toBeCloseTo(expected.meanAbsoluteError, 12);
      }
    }
  });

  it('goes on from a bulk-built summary as the list would', () => {
    const list = observations(120, 9);
    const summary = RunningSummary.from(list.slice(0, 80));
    for (const observation of list.slice(80)) summary.add(observation);
    expect(summary.statistics('latencySeconds', 'incident', 'heuristic-v1').p90Interval).toEqual(summarize('latencySeconds', 'incident', list, 'heuristic-v1').p90Interval);
  });
});
