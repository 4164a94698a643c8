/**
 * The semantic plan cache through the whole runtime on embedded PGlite (demo corpus): EXPLAIN
 * says hit or miss, which stored plan a hit reused, and for a near miss which key part differed.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WITHHELD_INTENT } from '../../runtime/access/cached-intent-access';
import { renderExplainTree } from '../../runtime/explain/explain-tree';
import { openRuntimeFixture, type RuntimeFixture } from '../../testing/runtime-fixture';

let fixture: RuntimeFixture;
const operator = { user: 'olga', roles: ['operator'] };
const goal = 'Why did checkout-api fail after the deploy?';

beforeAll(async () => {
  fixture = await openRuntimeFixture({ config: { policy: { source_roles: { 'demo-git': ['operator', 'admin'] } } } });
});

afterAll(async () => {
  await fixture?.close();
});

describe('EXPLAIN over the semantic plan cache', () => {
  it('reuses a plan for a paraphrase, with this goal’s own intent, and says which plan it reused', async () => {
    const first = await fixture.runtime.explain({ goal, principal: operator });
    expect(first.planCache.status).toBe('miss');
    const paraphrase = await fixture.runtime.explain({ goal: 'What caused the checkout-api failure after the deployment', principal: operator });
    expect(paraphrase.planCache).toMatchObject({ status: 'hit', servedIntent: 'why did checkout-api fail after the deploy', tier: 'memory' });
    expect(paraphrase.planCache.similarity).toBeGreaterThan(0.8);
    expect(paraphrase.planHash).toBe(first.planHash);
    expect(paraphrase.goal).toBe('What caused the checkout-api failure after the deployment');
    expect(paraphrase.intent.goal).toBe('What caused the checkout-api failure after the deployment');
    expect(renderExplainTree(paraphrase)).toContain('Plan cache: hit (memory), planned for "why did checkout-api fail after the deploy"');
  });

  it("reuses the plan for another user with the same permissions but never names their goal (issue 12, finding 3)", async () => {
    const colleague = { user: 'otto', roles: ['operator'] };
    const hit = await fixture.runtime.explain({ goal: 'Why did checkout-api fail after the deployment', principal: colleague });
    expect(hit.planCache.status).toBe('hit');
    expect(hit.planCache.servedIntent).toBe(WITHHELD_INTENT);
    expect(JSON.stringify(hit)).not.toContain('"why did checkout-api fail after the deploy"');
  });

  it('names the differing part on a near miss: budget, then permissions', async () => {
    const budget = await fixture.runtime.explain({ goal, principal: operator, constraints: { max_cost_usd: 0.02 } });
    expect(budget.planCache).toMatchObject({ status: 'miss', nearMiss: { differs: ['constraints'], similarity: 1 } });
    expect(renderExplainTree(budget)).toMatch(/Plan cache: near miss on "why did checkout-api fail after the deploy" .*differs in constraints/);
    const viewer = await fixture.runtime.explain({ goal, principal: { user: 'vic', roles: ['viewer'] } });
    expect(viewer.planCache.status).toBe('miss');
    expect(viewer.planCache.nearMiss?.differs[0]).toBe('permissions');
    expect(viewer.selectedSources).not.toContain('demo-git');
  });

  it('never serves a plan made before a source changed', async () => {
    const notes = join(fixture.root, 'notes');
    mkdirSync(notes, { recursive: true });
    writeFileSync(join(notes, 'a.md'), '# Notes\n\ncheckout-api memory limit is 128Mi.\n');
    await fixture.runtime.ingest(notes, { source: 'notes' });
    const before = await fixture.runtime.explain({ goal, principal: operator });
    expect((await fixture.runtime.explain({ goal, principal: operator })).planCache.status).toBe('hit');
    writeFileSync(join(notes, 'a.md'), '# Notes\n\ncheckout-api memory limit is 96Mi.\n');
    await fixture.runtime.ingest(notes, { source: 'notes' });
    const after = await fixture.runtime.explain({ goal, principal: operator });
    expect(after.planCache).toMatchObject({ status: 'miss', nearMiss: { differs: ['invalidated', 'sources'], invalidatedReason: 'source notes changed' } });
    expect(after.planCache.key.sourceFingerprint).not.toBe(before.planCache.key.sourceFingerprint);
  });
});
