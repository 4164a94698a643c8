import { describe, expect, it } from 'vitest';
import { ROLES } from '../../auth/roles';
import type { RunRecord, RunStatus } from '../contracts/run-store';
import { createConfigPolicy } from '../policy/config-policy';
import type { SourceInfo } from '../types';
import { principalAccess, RANKED_ROLES, sourcesOfRun } from './principal-access';

const policy = createConfigPolicy({ sourceRoles: { payroll: ['admin'] }, sensitiveSources: [], highRiskRequiresHuman: true, verificationByDefault: true });
const source = (name: string): SourceInfo => ({ name, kind: 'docs', versionId: 'v1', contentHash: 'h', chunkCount: 1, stale: false, sensitive: false, updatedAt: '2026-01-01T00:00:00Z', tokenCount: 10 });
const known = [source('runbooks'), source('payroll')];

function run(fields: { sources: readonly string[]; cited?: readonly string[]; status?: RunStatus; user?: string; decided?: boolean }): RunRecord {
  return {
    id: 'run-1',
    goal: 'g',
    status: fields.status ?? 'completed',
    planHash: 'p',
    plan: { explain: { selectedSources: fields.sources } },
    result: { citations: (fields.cited ?? []).map((sourceName, index) => ({ ref: index + 1, chunkId: `c${index}`, sourceName, quote: '' })) },
    user: fields.user ?? 'owner',
    createdAt: '',
    updatedAt: '',
    nodeOutcomes: new Map(),
    skipped: [],
    decisions: new Map(fields.decided ? [['approve', { nodeId: 'approve', decision: 'rejected', by: 'a', comment: '', at: '' }]] : []),
  } as RunRecord;
}

const as = (user: string, ...roles: string[]) => principalAccess(policy, { user, roles }, known);

describe('principalAccess', () => {
  it('ranks roles as server/auth/roles.ts does', () => {
    expect([...RANKED_ROLES]).toEqual([...ROLES]);
  });

  it('reads a run only when the policy lets the principal read every source it drew from or cited', () => {
    expect(as('vic', 'viewer').mayReadRun(run({ sources: ['runbooks'] }))).toBe(true);
    expect(as('vic', 'viewer').mayReadRun(run({ sources: ['runbooks', 'payroll'] }))).toBe(false);
    expect(as('vic', 'viewer').mayReadRun(run({ sources: ['runbooks'], cited: ['payroll'] }))).toBe(false);
    expect(as('root', 'admin').mayReadRun(run({ sources: ['runbooks', 'payroll'] }))).toBe(true);
    // A source removed since the run is judged by its name: restricted stays restricted.
    expect(principalAccess(policy, { user: 'vic', roles: ['viewer'] }, [source('runbooks')]).mayReadRun(run({ sources: ['payroll'] }))).toBe(false);
    expect(sourcesOfRun({ selectedSources: ['a', 'b'] }, ['b', 'c'])).toEqual(['a', 'b', 'c']);
  });

  it("keeps a run that is not a published answer to its owner, the approvers (paused or decided) and admins", () => {
    const paused = run({ sources: ['runbooks'], status: 'awaiting_approval' });
    const rejected = run({ sources: ['runbooks'], status: 'rejected', decided: true });
    const failed = run({ sources: ['runbooks'], status: 'failed' });
    expect([paused, rejected, failed].map((record) => as('vic', 'viewer').mayReadRun(record))).toEqual([false, false, false]);
    expect([paused, rejected, failed].map((record) => as('owner', 'operator').mayReadRun(record))).toEqual([true, true, true]);
    expect([paused, rejected, failed].map((record) => as('ada', 'approver').mayReadRun(record))).toEqual([true, true, false]);
    expect([paused, rejected, failed].map((record) => as('root', 'admin').mayReadRun(record))).toEqual([true, true, true]);
  });

  it('lists the sources a principal may read and judges names of sources it does not know', () => {
    expect(as('vic', 'viewer').readableSources.map((entry) => entry.name)).toEqual(['runbooks']);
    expect(as('vic', 'viewer').mayReadSources(['runbooks', null, 'elsewhere'])).toBe(true);
    expect(as('vic', 'viewer').mayReadSources(['payroll'])).toBe(false);
  });
});
