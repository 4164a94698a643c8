/**
 * A quote names the plan EXPLAIN shows and a run executes for the same request (issue 10: the
 * console's quote showed another hash than EXPLAIN). Real runtime, embedded PGlite, demo corpus.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_QUESTION } from '../../ingest/demo-corpus';
import { openRuntimeFixture, type RuntimeFixture } from '../../testing/runtime-fixture';

let fixture: RuntimeFixture;

beforeAll(async () => {
  fixture = await openRuntimeFixture();
});

afterAll(async () => {
  await fixture?.close();
});

describe('simulate() and EXPLAIN name the same plan', () => {
  it('quoted first (a plan-cache miss) or explained first, the hash is the same', async () => {
    const quotedFirst = { goal: 'Why did checkout-api crash after the last deploy?', constraints: { max_cost_usd: 0.05, require_verification: true } };
    const quote = await fixture.runtime.simulate(quotedFirst);
    const explain = await fixture.runtime.explain(quotedFirst);
    expect(quote.planHash).toBe(explain.planHash);

    const explainedFirst = { goal: DEMO_QUESTION, sources: ['demo-logs', 'demo-events'], constraints: { max_latency_seconds: 30 } };
    const explainFirst = await fixture.runtime.explain(explainedFirst);
    expect((await fixture.runtime.simulate(explainedFirst)).planHash).toBe(explainFirst.planHash);
  });

  it('carries the caps the plan was chosen under, as EXPLAIN has them', async () => {
    const request = { goal: DEMO_QUESTION, constraints: { max_cost_usd: 0.02, max_tokens: 5000 } };
    const quote = await fixture.runtime.simulate(request);
    const explain = await fixture.runtime.explain(request);
    expect(quote.constraints).toEqual(explain.constraints);
    expect(quote.constraints).toMatchObject({ max_cost_usd: 0.02, max_tokens: 5000 });
  });

  it('running the quoted request runs the quoted plan', async () => {
    const request = { goal: DEMO_QUESTION, constraints: { max_cost_usd: 1 } };
    const quote = await fixture.runtime.simulate(request);
    const run = await fixture.runtime.run(request);
    expect(run.explain.planHash).toBe(quote.planHash);
  });
});
