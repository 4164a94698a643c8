import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Observation } from '../../runtime/contracts/observation-store';
import { calibrationReport } from '../../runtime/costmodel/calibration-report';
import type { CalibrationReport } from '../../runtime/costmodel/calibration-types';
import type { EstimatedField, IntentClass } from '../../runtime/types';
import { openStores, type Stores } from './open-stores';

const root = mkdtempSync(path.join(tmpdir(), 'cr-calibration-sql-'));
let stores: Stores;
const NOW = new Date('2026-12-01T00:00:00Z');

/** A deterministic spread: three estimators, four fields (two on the scatter), three intents, over ten days, ties in time included. */
function fixture(): Observation[] {
  let state = 11;
  const random = () => (state = (state * 48_271) % 2_147_483_647) / 2_147_483_647;
  const fields: EstimatedField[] = ['tokens', 'latencySeconds', 'accuracy', 'risk'];
  const intents: IntentClass[] = ['incident', 'conceptual', 'exact_id'];
  const rows: Observation[] = [];
  for (let index = 0; index < 600; index += 1) {
    const estimate = 10 + random() * 1000;
    const spread = 0.2 + random();
    rows.push({
      runId: `run-${Math.floor(index / 4)}`,
      planHash: 'plan',
      estimator: ['heuristic-v1', 'learned-v2', 'zeta-v0'][index % 3],
      field: fields[Math.floor(index / 3) % fields.length],
      intentClass: intents[Math.floor(random() * intents.length)],
      estimate,
      low: estimate * (1 - spread / 2),
      high: estimate * (1 + spread),
      actual: estimate * (0.3 + random() * 1.6),
      // Whole seconds with repeats: equal times must order by insertion (id) the same way both ways.
      observedAt: new Date(Date.UTC(2026, 10, 20) + Math.floor(random() * 400) * 2_160_000).toISOString(),
    });
  }
  return rows.sort((left, right) => left.observedAt.localeCompare(right.observedAt));
}

/** Floats summed in a different order differ in the last bits; everything else must match exactly. */
function expectSameReport(actual: CalibrationReport, expected: CalibrationReport): void {
  const rounded = (report: CalibrationReport) => JSON.parse(JSON.stringify(report, (_key, value: unknown) => (typeof value === 'number' ? Number(value.toPrecision(12)) : value)));
  expect(rounded(actual)).toEqual(rounded(expected));
}

beforeAll(async () => {
  stores = await openStores({ dataDir: path.join(root, 'pglite') });
});
afterAll(async () => {
  await stores?.close();
  rmSync(root, { recursive: true, force: true });
});

describe('calibration report aggregated in SQL', () => {
  it('is empty, not failing, with no observations', async () => {
    expectSameReport(await stores.observationStore.calibrationReport({}, NOW), calibrationReport([], {}, NOW));
  });

  it('gives the same numbers as the in-process report over the whole table', async () => {
    await stores.observationStore.append(fixture());
    const rows = await stores.observationStore.all();
    expect(rows).toHaveLength(600);
    for (const options of [{}, { buckets: 5, scatterLimit: 7 }, { buckets: 1, scatterLimit: 1000 }]) {
      const inDatabase = await stores.observationStore.calibrationReport(options, NOW);
      expectSameReport(inDatabase, calibrationReport(rows, options, NOW));
      expect(inDatabase.statistics.length).toBeGreaterThan(20);
      expect(inDatabase.trend.length).toBe(12);
    }
  });
});
