import { describe, expect, it } from 'vitest';
import { calibrationReport, type CalibrationReportOptions } from '../../runtime/costmodel/calibration-report';
import type { Principal } from '../../runtime/types';
import { createCallerFactory, createTRPCRouter } from '../init';
import { fakeRuntimePort } from '../fake-runtime-port';
import type { RuntimePort } from '../runtime-port';
import { calibrationRouter } from './calibration-router';

const createCaller = createCallerFactory(createTRPCRouter({ calibration: calibrationRouter }));

const requested: CalibrationReportOptions[] = [];
const fake = fakeRuntimePort({
  calibration: async (options = {}) => {
    requested.push(options);
    return calibrationReport(
      [{ runId: 'r1', planHash: 'h', estimator: 'heuristic-v1', field: 'tokens', intentClass: 'incident', estimate: 1000, low: 500, high: 2000, actual: 1200, observedAt: '2026-11-30T04:00:00.000Z' }],
      options,
    );
  },
});
const callerAs = (principal?: Principal, runtime: RuntimePort = fake) => createCaller({ runtime: async () => runtime, principal });

describe('calibration router', () => {
  it('gives a viewer the report, with default bucket and scatter sizes', async () => {
    const report = await callerAs({ user: 'v', roles: ['viewer'] }).calibration.report();
    expect(report.statistics.find((row) => row.intentClass === 'incident')).toMatchObject({ estimator: 'heuristic-v1', field: 'tokens', count: 1, intervalCoverage: 1, meanAbsoluteError: 200 });
    expect(requested.at(-1)).toEqual({ buckets: 12, scatterLimit: 300 });
    await callerAs({ user: 'a', roles: ['admin'] }).calibration.report({ buckets: 4, scatterLimit: 50 });
    expect(requested.at(-1)).toEqual({ buckets: 4, scatterLimit: 50 });
  });

  it('refuses without sign-in and below the viewer role', async () => {
    await expect(callerAs().calibration.report()).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
    await expect(callerAs({ user: 'x', roles: ['guest'] }).calibration.report()).rejects.toMatchObject({ code: 'FORBIDDEN' });
  });

  it('rejects out-of-range options naming the field, and reports a runtime whose calibration fails as internal', async () => {
    await expect(callerAs({ user: 'v', roles: ['viewer'] }).calibration.report({ buckets: 1000 })).rejects.toMatchObject({ code: 'BAD_REQUEST', message: expect.stringContaining('buckets') });
    await expect(callerAs({ user: 'v', roles: ['viewer'] }, fakeRuntimePort()).calibration.report()).rejects.toMatchObject({ code: 'INTERNAL_SERVER_ERROR' });
  });
});
