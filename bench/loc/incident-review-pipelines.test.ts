/**
 * The two sides of bench:loc answer the same question equally well: same cited evidence, and the
 * evidence the demo incident is about (README of examples/demo-incident: the OOM kills at the
 * 256Mi limit, the commit that lowered it, the service's memory profile). Each runs once here;
 * the bench times 50.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_QUESTION } from '../../server/ingest/demo-corpus';
import { compareEvidence, type IncidentReviewBench, openIncidentReviewBench } from './incident-review-setup';

let bench: IncidentReviewBench;

describe('bench:loc incident-review pipelines', () => {
  // Three PGlite opens (ingest, then one engine per side): past the default hook timeout on a busy machine.
  beforeAll(async () => {
    bench = await openIncidentReviewBench();
  }, 300_000);

  afterAll(async () => {
    await bench?.close();
  });

  it('both complete citing the same evidence: the OOMKilled log lines, the memory-limit commit and the memory profile', async () => {
    const handRolled = await bench.handRolled.review(DEMO_QUESTION, 0.05);
    const contextRuntime = await bench.contextRuntime.review(DEMO_QUESTION, 0.05);
    expect(handRolled.status).toBe('completed');
    expect(contextRuntime.status).toBe('completed');
    const evidence = compareEvidence(handRolled, contextRuntime);
    expect(evidence.handRolled).toEqual(evidence.contextRuntime);
    expect(evidence.same).toBe(true);
    expect(evidence.handRolled).toEqual(expect.arrayContaining(['demo-logs · lines 64–68', 'demo-git · commit 48d4188', 'demo-docs · § Memory profile']));
    expect(handRolled.answer).toMatch(/OOMKilled/);
    expect(contextRuntime.answer).toMatch(/OOMKilled/);
  });

  it('both refuse a cap the model call would cross, before calling the model', async () => {
    const calls = bench.server.calls;
    const handRolled = await bench.handRolled.review(DEMO_QUESTION, 0.000_01);
    expect(handRolled).toMatchObject({ status: 'over_cost_cap', citations: [], costUsd: 0 });
    await expect(bench.contextRuntime.review(DEMO_QUESTION, 0.000_01)).rejects.toMatchObject({ code: 'NO_FEASIBLE_PLAN' });
    expect(bench.server.calls).toBe(calls);
  });
});
