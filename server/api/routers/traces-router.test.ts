/**
 * The traces router over the real runtime (embedded PGlite, demo corpus): runs filtered by goal
 * text, status, user and time range, paged with offset; one run's spans as a tree.
 * The role rule is checked for every procedure: signed out → UNAUTHORIZED, no role → FORBIDDEN.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunResult } from '../../runtime/explain/explain-types';
import type { Principal } from '../../runtime/types';
import { openRuntimeFixture, type RuntimeFixture } from '../../testing/runtime-fixture';
import { createCallerFactory, createTRPCRouter } from '../init';
import { tracesRouter } from './traces-router';

const createCaller = createCallerFactory(createTRPCRouter({ traces: tracesRouter }));
let fixture: RuntimeFixture;
let incident: RunResult;
let gated: RunResult;
let startedAt: string;

const as = (principal?: Principal) => createCaller({ runtime: async () => fixture.runtime, ...(principal ? { principal } : {}) });
const viewer = as({ user: 'vic', roles: ['viewer'] });
/** Approvers read runs paused at a gate too (runtime/access/principal-access.ts); a viewer reads completed ones. */
const approver = as({ user: 'ada', roles: ['approver'] });

beforeAll(async () => {
  fixture = await openRuntimeFixture();
  startedAt = new Date(Date.now() - 1000).toISOString();
  incident = await fixture.runtime.run({ goal: 'Explain why deployment checkout-api failed', principal: { user: 'ana', roles: ['operator'] } });
  gated = await fixture.runtime.run({ goal: 'Roll back the production deployment of checkout-api', principal: { user: 'bo', roles: ['operator'] } });
});

afterAll(async () => {
  await fixture?.close();
});

describe('traces router roles', () => {
  it('refuses a signed-out caller with UNAUTHORIZED and a caller without a role with FORBIDDEN', async () => {
    await expect(as().traces.list({})).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
    await expect(as().traces.get({ runId: incident.runId })).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
    const nobody = as({ user: 'nobody', roles: [] });
    await expect(nobody.traces.list({})).rejects.toMatchObject({ code: 'FORBIDDEN' });
    await expect(nobody.traces.get({ runId: incident.runId })).rejects.toMatchObject({ code: 'FORBIDDEN' });
  });
});

describe('traces router behaviour', () => {
  const ids = (page: { runs: readonly { id: string }[] }) => page.runs.map((run) => run.id);

  it('filters by goal text, status, user and time range', async () => {
    expect(ids(await approver.traces.list({}))).toEqual([gated.runId, incident.runId]);
    expect(ids(await approver.traces.list({ search: 'ROLL BACK' }))).toEqual([gated.runId]);
    expect(ids(await approver.traces.list({ status: 'awaiting_approval' }))).toEqual([gated.runId]);
    expect(ids(await approver.traces.list({ user: 'ana' }))).toEqual([incident.runId]);
    expect(ids(await approver.traces.list({ from: startedAt }))).toHaveLength(2);
    expect(ids(await approver.traces.list({ to: startedAt }))).toEqual([]);
    expect(ids(await approver.traces.list({ search: 'checkout', user: 'bo', status: 'completed' }))).toEqual([]);
    const [first] = (await approver.traces.list({ search: 'why deployment' })).runs;
    expect(first).toMatchObject({ goal: 'Explain why deployment checkout-api failed', status: incident.status, user: 'ana' });
    expect(first.costUsd).toBeGreaterThanOrEqual(0);
    expect(first.latencySeconds).toBeGreaterThan(0);
  });

  it("leaves out of a viewer's list another user's run paused at its gate", async () => {
    expect(ids(await viewer.traces.list({}))).toEqual([incident.runId]);
    await expect(viewer.traces.get({ runId: gated.runId })).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('pages with offset and says whether another page exists', async () => {
    const first = await approver.traces.list({ limit: 1 });
    const second = await approver.traces.list({ limit: 1, offset: 1 });
    expect([first.hasMore, second.hasMore]).toEqual([true, false]);
    expect([...ids(first), ...ids(second)]).toEqual([gated.runId, incident.runId]);
  });

  it('rejects a malformed time bound naming the field', async () => {
    await expect(viewer.traces.list({ from: 'yesterday' })).rejects.toMatchObject({ code: 'BAD_REQUEST', message: expect.stringMatching(/^from:/) });
  });

  it("returns a run's headline and its spans, every parent id pointing at a span of the run", async () => {
    const { run, spans } = await viewer.traces.get({ runId: incident.runId });
    expect(run).toMatchObject({ runId: incident.runId, status: incident.status, goal: incident.explain.goal, planHash: incident.explain.planHash });
    expect(spans.length).toBeGreaterThan(5);
    const spanIds = new Set(spans.map((span) => span.id));
    for (const span of spans) if (span.parentId) expect(spanIds.has(span.parentId)).toBe(true);
    expect(spans.filter((span) => !span.parentId).map((span) => span.name).sort()).toEqual(['plan', 'run']);
    expect(spans.some((span) => span.name === 'node.reason' && span.category === 'node')).toBe(true);
    // The incident goal's retrieval is stratified per source: one measured search span per source, under its node.
    const byId = new Map(spans.map((span) => [span.id, span]));
    const searches = spans.filter((span) => span.category === 'retrieval');
    expect(searches.length).toBeGreaterThanOrEqual(2);
    for (const search of searches) {
      expect(byId.get(search.parentId!)?.name).toMatch(/^node\.retrieve-/);
      expect(search.name).toBe(`search.${search.attributes.source as string}`);
      expect(search.durationMs).toBeGreaterThan(0);
    }
    await expect(viewer.traces.get({ runId: 'no-such-run' })).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });
});
