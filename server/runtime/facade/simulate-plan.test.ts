/**
 * simulate() and EXPLAIN ANALYZE calibration on the real runtime (embedded PGlite, demo corpus):
 * the quote starts as the honestly wide prior, narrows as runs are observed, survives a restart,
 * and ANALYZE carries the estimator's calibration beside each node.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_QUESTION } from '../../ingest/demo-corpus';
import { openRuntimeFixture, type RuntimeFixture } from '../../testing/runtime-fixture';
import { renderExplainTree } from '../explain/explain-tree';
import type { SimulateResult } from '../explain/explain-types';
import type { LearningObservation } from '../costmodel/observation-learner';

let fixture: RuntimeFixture;
const GOALS = [DEMO_QUESTION, 'Why did checkout-api crash after the last deploy?', 'What caused the outage of checkout-api last night?', 'What happened to checkout-api during the deploy?'];
const logWidth = (result: SimulateResult) => Math.log((result.expected.tokens.high + 1) / (result.expected.tokens.low + 1));

beforeAll(async () => {
  fixture = await openRuntimeFixture();
});

afterAll(async () => {
  await fixture?.close();
});

describe('simulate() and EXPLAIN ANALYZE calibration', () => {
  it('quotes the widened prior with no samples, then narrows as runs are observed, and keeps it across a restart', async () => {
    const before = await fixture.runtime.simulate({ goal: DEMO_QUESTION });
    expect(before).toMatchObject({ basedOnSamples: 0, interval: 'p05-p95', estimator: 'learned-v2', intentClass: 'incident' });
    expect(before.samples?.tokens.method).toBe('prior');
    expect(before.expected.tokens.high).toBeGreaterThan(before.prior!.tokens.high);

    for (let index = 0; index < 24; index++) {
      const result = await fixture.runtime.run({ goal: GOALS[index % GOALS.length] });
      expect(result.status).toBe('completed');
    }
    // Each run's observations carry its request features (issue 16.3): goal length differs across GOALS.
    const observed = (await fixture.plugins.observationStore.all()) as readonly LearningObservation[];
    expect(observed.length).toBeGreaterThan(0);
    expect(observed.every((row) => row.features !== undefined && row.features.goalTokens > 0 && row.features.sourceTokens > 0 && row.features.topK > 0)).toBe(true);
    expect(new Set(observed.map((row) => row.features!.goalTokens)).size).toBeGreaterThan(1);
    const after = await fixture.runtime.simulate({ goal: DEMO_QUESTION });
    expect(after.basedOnSamples).toBeGreaterThanOrEqual(20);
    expect(after.samples?.tokens.method).toBe('conformal');
    expect(logWidth(after)).toBeLessThan(logWidth(before));
    expect(after.expected.tokens.low).toBeLessThanOrEqual(after.expected.tokens.value);
    expect(after.expected.tokens.high).toBeGreaterThanOrEqual(after.expected.tokens.value);

    fixture = await fixture.restart();
    const reloaded = await fixture.runtime.simulate({ goal: DEMO_QUESTION });
    expect(reloaded.basedOnSamples).toBe(after.basedOnSamples);
    expect(reloaded.expected.tokens).toEqual(after.expected.tokens);
  });

  it('puts the estimator calibration for the intent class beside every analyzed node, in JSON and in the tree', async () => {
    const explain = await fixture.runtime.explain({ goal: DEMO_QUESTION }, { analyze: true });
    const calibration = explain.analyze!.calibration!;
    expect(calibration.tokens).toMatchObject({ estimator: 'heuristic-v1', intentClass: 'incident' });
    expect(calibration.tokens.count).toBeGreaterThanOrEqual(25);
    expect(calibration.latencySeconds.intervalCoverage).toBeGreaterThanOrEqual(0);
    expect(calibration.latencySeconds.intervalCoverage).toBeLessThanOrEqual(1);
    const done = explain.analyze!.nodes.filter((node) => node.status === 'done');
    expect(done.length).toBeGreaterThan(3);
    for (const node of done) expect(node.calibration).toEqual(calibration);
    const tree = renderExplainTree(explain);
    expect(tree).toMatch(/\[calibration heuristic-v1\/incident: tokens cov \d\.\d\d MAE \d+ n=\d+;/);
    const stored = await fixture.runtime.getRun(explain.analyze!.runId);
    expect(stored.run.explain.analyze?.calibration?.tokens.count).toBe(calibration.tokens.count);
    const statistics = await fixture.runtime.statistics();
    expect(statistics.find((row) => row.field === 'tokens' && row.intentClass === 'incident')?.count).toBe(calibration.tokens.count);
  });
});
