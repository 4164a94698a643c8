import { describe, expect, it } from 'vitest';
import type { NodeOutcome } from '../contracts/scheduler';
import { createGraph, createNode } from '../ir/graph';
import { WaveScheduler } from '../scheduler/wave-scheduler';
import { nextWave } from './next-wave';

// retrieve ×2 → fuse → assemble → reason → verify: five waves.
const graph = createGraph([
  createNode('retrieve', { id: 'retrieve.bm25', inputs: [], method: 'bm25', sources: ['demo-logs'], sourceKinds: ['logs'], k: 20 }),
  createNode('retrieve', { id: 'retrieve.exact', inputs: [], method: 'exact', sources: ['demo-events'], sourceKinds: 'all', k: 10 }),
  createNode('fuse', { id: 'fuse', inputs: ['retrieve.bm25', 'retrieve.exact'], strategy: 'rrf', rrfK: 60, k: 20 }),
  createNode('assemble', { id: 'assemble', inputs: ['fuse'], tokenBudget: 3000, finalK: 8 }),
  createNode('reason', { id: 'reason', inputs: ['assemble'], strategy: 'single_shot', tier: 'local', localOnly: true, requireCitations: true, maxOutputTokens: 400 }),
  createNode('verify', { id: 'verify', inputs: ['reason'], method: 'citation' }),
]);
const schedule = new WaveScheduler().schedule(graph, { concurrency: 2 });
const done: NodeOutcome = { output: {}, actual: { tokens: 0, costUsd: 0, latencySeconds: 0 } };
const saved = (...ids: string[]) => ({ nodeOutcomes: new Map(ids.map((id) => [id, done])), skipped: [] as string[] });

describe('the next wave of a queued run', () => {
  it('starts with the first wave and takes the in-memory waves after it along, stopping before the model call', () => {
    const { schedule: cut, more } = nextWave(schedule, saved(), graph);
    expect(cut.waves).toEqual([['retrieve.bm25', 'retrieve.exact'], ['fuse'], ['assemble']]);
    expect(more).toBe(true);
  });

  it('executes again a wave with one node unsaved (the scheduler passes over the saved one), then moves on', () => {
    expect(nextWave(schedule, saved('retrieve.bm25'), graph).schedule.waves[0]).toEqual(['retrieve.bm25', 'retrieve.exact']);
    const { schedule: cut, more } = nextWave(schedule, saved('retrieve.bm25', 'retrieve.exact', 'fuse', 'assemble'), graph);
    expect(cut.waves.at(-1)).toEqual(['reason']);
    expect(cut.waves.flat()).not.toContain('verify');
    expect(more).toBe(true);
  });

  it('ends at the last wave, and says nothing remains', () => {
    const { schedule: cut, more } = nextWave(schedule, saved('retrieve.bm25', 'retrieve.exact', 'fuse', 'assemble', 'reason'), graph);
    expect(cut.waves.at(-1)).toEqual(['verify']);
    expect(more).toBe(false);
  });

  // verify → gate (branch) → a retry attempt (retrieve → assemble → reason), taken only when verify fails.
  const gated = createGraph([
    ...graph.nodes,
    createNode('branch', { id: 'gate', inputs: ['verify'], condition: 'verify.passed', whenTrue: [], whenFalse: ['retry.retrieve'] }),
    createNode('retrieve', { id: 'retry.retrieve', inputs: ['gate'], method: 'bm25', sources: ['demo-logs'], sourceKinds: ['logs'], k: 20 }),
    createNode('assemble', { id: 'retry.assemble', inputs: ['retry.retrieve'], tokenBudget: 3000, finalK: 8 }),
    createNode('reason', { id: 'retry.reason', inputs: ['retry.assemble'], strategy: 'single_shot', tier: 'local', localOnly: true, requireCitations: true, maxOutputTokens: 400 }),
  ]);
  const gatedSchedule = new WaveScheduler().schedule(gated, { concurrency: 2 });
  const beforeGate = ['retrieve.bm25', 'retrieve.exact', 'fuse', 'assemble', 'reason', 'verify'];

  it('finishes in one job what a gate left to skip: nothing after it executes, so no job of its own', () => {
    const passed = { nodeOutcomes: new Map([...saved(...beforeGate).nodeOutcomes, ['gate', { ...done, takenBranch: [] }]]), skipped: [] as string[] };
    const { schedule: cut, more, work } = nextWave(gatedSchedule, passed, gated);
    expect(work).toBe(false);
    expect(more).toBe(false);
    expect(cut.waves.flat()).toContain('retry.reason');
  });

  it('still cuts at the retry when the gate took it, and before the gate has decided', () => {
    const failed = { nodeOutcomes: new Map([...saved(...beforeGate).nodeOutcomes, ['gate', { ...done, takenBranch: ['retry.retrieve'] }]]), skipped: [] as string[] };
    const taken = nextWave(gatedSchedule, failed, gated);
    expect(taken.work).toBe(true);
    expect(taken.schedule.waves.at(-1)).toEqual(['retry.assemble']);
    expect(taken.more).toBe(true);
    const undecided = nextWave(gatedSchedule, saved(...beforeGate), gated);
    expect(undecided.work).toBe(true);
    expect(undecided.schedule.waves.flat()).toContain('gate');
    expect(undecided.schedule.waves.flat()).not.toContain('retry.reason');
  });
});
