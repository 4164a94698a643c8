import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Observation } from '../../runtime/contracts/observation-store';
import type { Span } from '../../runtime/contracts/trace-sink';
import { openStores, type Stores } from './open-stores';

// One database for both learning-loop stores: each PGlite open costs seconds on two cores.
const root = mkdtempSync(path.join(tmpdir(), 'cr-trace-sink-'));
let stores: Stores;

beforeAll(async () => {
  stores = await openStores({ dataDir: path.join(root, 'pglite') });
});

afterAll(async () => {
  await stores?.close();
  rmSync(root, { recursive: true, force: true });
});

const span = (id: string, startedAt: string, extra: Partial<Span> = {}): Span => ({
  id,
  runId: 'run-1',
  name: `node ${id}`,
  category: 'node',
  startedAt,
  endedAt: startedAt,
  durationMs: 12.5,
  tokens: 40,
  costUsd: 0.0001,
  status: 'ok',
  attributes: { method: 'bm25', k: 20 },
  ...extra,
});

describe('PgTraceSink', () => {
  it('writes spans and reads a run’s spans back in start order', async () => {
    const root = span('s-root', '2026-01-01T00:00:00.000Z', { category: 'run', name: 'run' });
    const child = span('s-child', '2026-01-01T00:00:00.250Z', { parentId: 's-root', status: 'error', attributes: { error: 'timeout' } });
    await stores.traceSink.write([child, root, span('other', '2026-01-01T00:00:00.000Z', { runId: 'run-2' })]);
    expect(await stores.traceSink.spansOf('run-1')).toEqual([root, child]);
    expect(await stores.traceSink.spansOf('run-none')).toEqual([]);
  });

  it('ignores a span id written twice (a retried flush)', async () => {
    await stores.traceSink.write([span('s-root', '2026-01-01T00:00:00.000Z', { name: 'changed' })]);
    const spans = await stores.traceSink.spansOf('run-1');
    expect(spans).toHaveLength(2);
    expect(spans[0].name).toBe('run');
  });
});

describe('PgObservationStore', () => {
  const observation = (field: Observation['field'], estimator: string, observedAt: string): Observation => ({
    runId: 'run-1',
    planHash: 'plan-1',
    estimator,
    field,
    intentClass: 'incident',
    estimate: 0.01,
    low: 0.005,
    high: 0.02,
    actual: 0.013,
    observedAt,
  });

  it('appends and returns observations oldest first, optionally by estimator', async () => {
    const later = observation('costUsd', 'heuristic', '2026-01-02T00:00:00.000Z');
    const earlier = observation('latencySeconds', 'heuristic', '2026-01-01T00:00:00.000Z');
    const other = observation('tokens', 'learned', '2026-01-03T00:00:00.000Z');
    await stores.observationStore.append([later, earlier, other]);
    expect(await stores.observationStore.all()).toEqual([earlier, later, other]);
    expect(await stores.observationStore.all({ estimator: 'heuristic' })).toEqual([earlier, later]);
    await stores.observationStore.append([]);
    expect(await stores.observationStore.all({ estimator: 'none' })).toEqual([]);
  });
});
