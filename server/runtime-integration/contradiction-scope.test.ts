/**
 * Caveats scoped to the goal, on the real runtime and database (issue 10): the demo corpus holds
 * one contradiction, checkout-api's memory limit (256Mi in the deploy history, 512Mi in the
 * overview doc). A second, small source about billing-worker is ingested beside it. The demo
 * question keeps its caveat; a billing-worker question whose retrieved context does contain the
 * checkout-api facts gets no checkout-api caveat, and gets billing-worker's own disagreement.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PgKnowledge } from '../adapters/db/pg-knowledge';
import { DEMO_QUESTION } from '../ingest/demo-corpus';
import type { AssembledContext } from '../runtime/execution/assemble-context';
import { renderExplainTree } from '../runtime/explain/explain-tree';
import { openRuntimeFixture, type RuntimeFixture } from '../testing/runtime-fixture';

const BILLING_GOAL = 'What is the memory limit of billing-worker?';
let fixture: RuntimeFixture;
let knowledge: PgKnowledge;

const disagreements = (caveats: readonly string[]) => caveats.filter((caveat) => caveat.startsWith('Sources disagree on '));

beforeAll(async () => {
  fixture = await openRuntimeFixture();
  knowledge = fixture.plugins.knowledge as PgKnowledge;
  const runbook = fixture.writeSource('billing-runbook', 'billing-worker.md', [
    '# billing-worker runbook',
    '',
    'billing-worker runs the nightly invoice batch for the finance team.',
    '',
    '## Resources',
    '',
    'The billing-worker memory limit is 1Gi. Each batch holds at most 40,000 invoices in memory.',
    '',
  ].join('\n'));
  const manifest = fixture.writeSource('billing-deploy', 'billing-worker-resources.md', ['# billing-worker resources', '', 'The billing-worker memory limit is 768Mi since the October resize.', ''].join('\n'));
  await fixture.runtime.ingest(runbook, { source: 'billing-runbook' });
  await fixture.runtime.ingest(manifest, { source: 'billing-deploy' });
  await knowledge.syncAll();
});

afterAll(async () => {
  await fixture?.close();
});

describe('contradictions and caveats scoped to the goal', () => {
  it('knows both disagreements: checkout-api (demo) and billing-worker (the new sources)', async () => {
    const all = await knowledge.contradictionsAmong((await fixture.runtime.sources()).map((source) => source.name));
    expect(all.map((entry) => `${entry.subject} ${entry.attribute}`).sort()).toEqual(['billing-worker memory limit', 'checkout-api memory limit']);
  });

  it('the demo question still carries the checkout-api memory-limit caveat, and only that one', async () => {
    const result = await fixture.runtime.run({ goal: DEMO_QUESTION });
    expect(result.status).toBe('completed');
    expect(disagreements(result.caveats)).toEqual([expect.stringMatching(/^Sources disagree on checkout-api memory limit: .*256Mi .* vs 512Mi \(demo-docs\)\.$/)]);
    expect(result.explain.contradictions.map((entry) => entry.subject)).toEqual(['checkout-api']);
  });

  it('a billing-worker question gets its own disagreement, not checkout-api’s, although its context holds checkout-api facts', async () => {
    const result = await fixture.runtime.run({ goal: BILLING_GOAL });
    expect(result.status).toBe('completed');
    // Retrieval over docs and git once brought in the demo's "Lower checkout-api memory limit" commit (a
    // "memory limit" match) and the old code made its disagreement a caveat; sources that never name
    // billing-worker now leave the list (keepSourcesAboutGoal), so the context holds only billing-worker's.
    const run = await fixture.plugins.runStore.loadRun(result.runId);
    const context = run!.nodeOutcomes.get('assemble')!.output as AssembledContext;
    const inContext = await knowledge.contradictions(context.items.map((item) => item.hit.chunkId));
    expect(inContext.map((entry) => entry.subject)).toEqual(['billing-worker']);

    expect(disagreements(result.caveats)).toEqual([expect.stringMatching(/^Sources disagree on billing-worker memory limit: /)]);
    expect(result.caveats.join(' ')).not.toContain('checkout-api');
  });

  it('EXPLAIN lists the goal’s contradictions as its own and the rest apart, marked as not about the goal', async () => {
    // The incident plan reads every source kind, so both disagreements lie among its sources.
    const explain = await fixture.runtime.explain({ goal: DEMO_QUESTION });
    expect(explain.contradictions.map((entry) => entry.subject)).toEqual(['checkout-api']);
    expect(explain.otherContradictions?.map((entry) => entry.subject)).toEqual(['billing-worker']);
    const tree = renderExplainTree(explain);
    expect(tree).toMatch(/^Contradiction: checkout-api memory limit: /m);
    expect(tree).toMatch(/^Contradiction \(not about this goal, no caveat\): billing-worker memory limit: 1024Mi \(billing-runbook\) vs 768Mi \(billing-deploy\)$/m);
    // The billing question plans over docs and git, which hold checkout-api's disagreement too: its own is
    // its contradiction, checkout-api's is listed apart as not about the goal.
    const billing = await fixture.runtime.explain({ goal: BILLING_GOAL });
    expect(billing.contradictions.map((entry) => entry.subject)).toEqual(['billing-worker']);
    expect(billing.otherContradictions?.map((entry) => entry.subject)).toEqual(['checkout-api']);
  });

  it('a plan served from the cache keeps the split, read against the goal that asked', async () => {
    const again = await fixture.runtime.explain({ goal: DEMO_QUESTION });
    expect(again.planCache.status).toBe('hit');
    expect(again.contradictions.map((entry) => entry.subject)).toEqual(['checkout-api']);
    expect(again.otherContradictions?.map((entry) => entry.subject)).toEqual(['billing-worker']);
  });

  it('a question about rotating a key is answered, not held for approval', async () => {
    const result = await fixture.runtime.run({ goal: 'What has to be done after the payment provider key is rotated?' });
    expect(result.status).toBe('completed');
    expect(result.pendingApproval).toBeUndefined();
    expect(renderExplainTree(result.explain)).toContain('Risk: not high — a question ("what …") that asks for no action; payment, rotated read as the topic');
  });
});
