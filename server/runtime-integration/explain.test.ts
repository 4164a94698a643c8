/**
 * EXPLAIN and EXPLAIN ANALYZE of the demo question on the real embedded database: the object a
 * user reads to answer "why this plan?", its determinism, the plan cache, and estimate-vs-actual.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ExplainResult } from '../runtime/explain/explain-types';
import { renderExplainTree } from '../runtime/explain/explain-tree';
import type { Estimate } from '../runtime/types';
import { DEMO_QUESTION } from '../ingest/demo-corpus';
import { openRuntimeFixture, type RuntimeFixture } from '../testing/runtime-fixture';

const SCORE_KEYS = ['acc', 'cost', 'lat', 'risk', 'hall', 'loss', 'cache', 'vrf'];
let fixture: RuntimeFixture;
let first: ExplainResult;
let second: ExplainResult;

function expectInterval(estimate: Estimate, label: string): void {
  for (const value of [estimate.low, estimate.value, estimate.high]) expect(Number.isFinite(value), label).toBe(true);
  expect(estimate.low, label).toBeLessThanOrEqual(estimate.value);
  expect(estimate.value, label).toBeLessThanOrEqual(estimate.high);
  expect(estimate.low, label).toBeGreaterThanOrEqual(0);
}

describe('EXPLAIN on embedded PGlite', () => {
  beforeAll(async () => {
    fixture = await openRuntimeFixture();
    first = await fixture.runtime.explain({ goal: DEMO_QUESTION });
    second = await fixture.runtime.explain({ goal: DEMO_QUESTION });
  });

  afterAll(async () => {
    await fixture?.close();
  });

  it('reads the intent: an incident about the checkout-api deployment', () => {
    expect(first.goal).toBe(DEMO_QUESTION);
    expect(first.intent.primary).toBe('incident');
    expect(first.intent.entities).toContain('checkout-api');
    expect(first.intent.identifiers).toContainEqual({ kind: 'deployment', value: 'checkout-api' });
  });

  it('lists scored candidates with every PlanScore component, and the chosen one among them', () => {
    expect(first.enumerated).toBeGreaterThanOrEqual(first.candidates.length);
    expect(first.candidates.length).toBeGreaterThan(1);
    for (const candidate of first.candidates) {
      expect(Object.keys(candidate.score.components).sort()).toEqual([...SCORE_KEYS].sort());
      for (const key of SCORE_KEYS) expect(Number.isFinite(candidate.score.components[key as keyof typeof candidate.score.components])).toBe(true);
      expect(Number.isFinite(candidate.score.total)).toBe(true);
      expect(candidate.description.length).toBeGreaterThan(0);
    }
    expect(first.chosen.chosen).toBe(true);
    expect(first.chosen.feasible).toBe(true);
    expect(first.candidates.filter((candidate) => candidate.chosen).map((candidate) => candidate.id)).toEqual([first.chosen.id]);
    // Best first: no feasible candidate outscores the chosen one.
    const bestFeasible = Math.max(...first.candidates.filter((candidate) => candidate.feasible).map((candidate) => candidate.score.total));
    expect(first.chosen.score.total).toBe(bestFeasible);
  });

  it('says why candidates were cut, by stage and rule', () => {
    expect(first.rejectedCandidates.length).toBeGreaterThan(0);
    for (const rejected of first.rejectedCandidates) {
      expect(['rule', 'capability', 'policy', 'constraint', 'dominated']).toContain(rejected.stage);
      expect(rejected.rule.length).toBeGreaterThan(0);
      expect(rejected.reason.length).toBeGreaterThan(0);
    }
  });

  it('names the selected sources, estimates with intervals, the token budget and the verification plan', async () => {
    const known = (await fixture.runtime.sources()).map((source) => source.name);
    expect(first.selectedSources.length).toBeGreaterThan(0);
    for (const source of first.selectedSources) expect(known).toContain(source);
    for (const [field, estimate] of Object.entries(first.estimates)) expectInterval(estimate, field);
    expect(first.tokenBudget).toMatchObject({ budget: 3000, finalK: 8 });
    expect(first.tokenBudget.estimatedContextTokens).toBeGreaterThan(0);
    expect(first.tokenBudget.estimatedContextTokens).toBeLessThanOrEqual(first.tokenBudget.budget);
    expect(first.verificationPlan.method).toBe(first.chosen.choice.verification);
    expect(first.verificationPlan.requireCitations).toBe(true);
    expect(first.verificationPlan.approval).toBe(false);
    expect(first.verificationPlan.reasons.length).toBeGreaterThan(0);
    expect(first.capabilities.store.backend).toBe('embedded-pglite');
    expect(first.graph.nodes.length).toBeGreaterThan(0);
  });

  it('lists the contradictions among the planned sources, with each value and where it comes from', () => {
    const limit = first.contradictions.find((entry) => entry.subject === 'checkout-api' && entry.attribute === 'memory limit');
    expect(limit).toBeDefined();
    const sourcesOf = (value: string) => new Set(limit!.values.filter((entry) => entry.value === value).map((entry) => entry.sourceName));
    expect(sourcesOf('512Mi')).toEqual(new Set(['demo-docs']));
    expect(sourcesOf('256Mi').has('demo-git')).toBe(true);
  });

  it('is deterministic and served from the plan cache the second time', async () => {
    expect(first.planCache.status).toBe('miss');
    expect(second.planCache.status).toBe('hit');
    expect(second.planHash).toBe(first.planHash);
    expect(second.planCache.key).toEqual(first.planCache.key);
    expect(second.chosen.id).toBe(first.chosen.id);
    expect(second.graph).toEqual(first.graph);
    expect(await fixture.count('plan_cache')).toBe(1);
    // EXPLAIN without ANALYZE executes nothing.
    expect(await fixture.count('runs')).toBe(0);
  });

  it('EXPLAIN ANALYZE overlays estimate and actual tokens, latency and cost on every executed node', async () => {
    const analyzed = await fixture.runtime.explain({ goal: DEMO_QUESTION }, { analyze: true });
    expect(analyzed.planHash).toBe(first.planHash);
    const analyze = analyzed.analyze!;
    expect(analyze.status).toBe('completed');
    expect(analyze.nodes.map((node) => node.nodeId)).toEqual(analyzed.graph.nodes.map((node) => node.id));
    // The demo answer passes its required verification: the gate skips the retry attempt.
    expect(analyze.nodes.filter((node) => node.status === 'skipped').every((node) => node.nodeId.includes('-retry'))).toBe(true);
    for (const node of analyze.nodes.filter((entry) => !entry.nodeId.includes('-retry'))) {
      expect(node.status, node.nodeId).toBe('done');
      expect(node.attempts).toBeGreaterThanOrEqual(1);
      for (const part of [node.estimate, node.actual!]) {
        for (const field of ['tokens', 'latencySeconds', 'costUsd'] as const) {
          expect(Number.isFinite(part[field]), `${node.nodeId}.${field}`).toBe(true);
          expect(part[field]).toBeGreaterThanOrEqual(0);
        }
      }
      for (const field of ['tokens', 'latencySeconds', 'costUsd'] as const) {
        const factor = node.misestimate![field];
        expect(factor.factor, `${node.nodeId}.${field}`).toBeGreaterThanOrEqual(1);
        expect(['under', 'over', 'exact']).toContain(factor.direction);
      }
    }
    const reason = analyze.nodes.find((node) => node.kind === 'reason')!;
    expect(reason.actual!.tokens).toBeGreaterThan(0);
    expect(reason.actual!.latencySeconds).toBeGreaterThan(0);
    expect(analyze.totals.actual.tokens).toBe(reason.actual!.tokens);
    const stored = await fixture.runtime.getRun(analyze.runId);
    expect(stored.run.status).toBe('completed');
    // The run's own answer is built without reading its record back: it must say what the record says.
    expect(stored.run.explain.analyze!.nodes.map((node) => [node.nodeId, node.status, node.actual])).toEqual(analyze.nodes.map((node) => [node.nodeId, node.status, node.actual]));
    expect(stored.run.explain.tokenBudget).toEqual(analyzed.tokenBudget);
    // A plan the planner made answers with every rejection (first); one served from the plan cache
    // (analyzed) carries the compact list the cache and the run record keep, counted in full.
    expect(analyzed.planCache?.status).toBe('hit');
    expect(analyzed.rejectedSummary?.total).toBe(first.rejectedCandidates.length);
    expect(first.rejectedSummary).toBeUndefined();
    const kept = stored.run.explain;
    expect(kept.rejectedSummary).toMatchObject({ total: first.rejectedCandidates.length, shown: kept.rejectedCandidates.length, keptPerRule: 20 });
    expect(kept.rejectedCandidates.length).toBeLessThan(first.rejectedCandidates.length);
    expect(kept.rejectedSummary!.byRule.reduce((sum, rule) => sum + rule.count, 0)).toBe(first.rejectedCandidates.length);
    const bestDominated = first.rejectedCandidates.filter((rejected) => rejected.stage === 'dominated').map((rejected) => rejected.score!).sort((left, right) => right - left).slice(0, 20);
    expect(kept.rejectedCandidates.filter((rejected) => rejected.stage === 'dominated').map((rejected) => rejected.score)).toEqual(bestDominated);
    const tree = renderExplainTree(kept);
    expect(tree).toContain(`${first.rejectedCandidates.length} rejected; showing the best 20 of each rule (${kept.rejectedCandidates.length} in all)`);
    expect(tree).toContain(`[dominated] ${first.rejectedCandidates.filter((rejected) => rejected.stage === 'dominated').length} candidates`);
    expect(renderExplainTree(first)).not.toContain('rejected; showing');
  });
});
