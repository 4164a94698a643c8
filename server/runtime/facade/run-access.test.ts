import { describe, expect, it } from 'vitest';
import type { RunRecord } from '../contracts/run-store';
import { createConfigPolicy } from '../policy/config-policy';
import type { SourceInfo } from '../types';
import { runReader, sourcesOfRun } from './run-access';

const policy = createConfigPolicy({ sourceRoles: { payroll: ['admin'] }, sensitiveSources: [], highRiskRequiresHuman: true, verificationByDefault: true });
const source = (name: string): SourceInfo => ({ name, kind: 'docs', versionId: 'v1', contentHash: 'h', chunkCount: 1, stale: false, sensitive: false, updatedAt: '2026-01-01T00:00:00Z', tokenCount: 10 });
const intent = { primary: 'conceptual', classes: ['conceptual'], signals: [], entities: [], identifiers: [] };

function recordOver(selectedSources: readonly string[], cited: readonly string[] = []): RunRecord {
  return {
    id: 'run-1',
    goal: 'g',
    status: 'completed',
    planHash: 'p',
    plan: { explain: { selectedSources, intent } },
    result: { citations: cited.map((sourceName, index) => ({ ref: index + 1, chunkId: `c${index}`, sourceName, quote: '' })) },
    user: 'u',
    createdAt: '',
    updatedAt: '',
    nodeOutcomes: new Map(),
    skipped: [],
    decisions: new Map(),
  } as unknown as RunRecord;
}

describe('runReader', () => {
  const known = [source('runbooks'), source('payroll')];

  it('lets a principal read a run only when the policy lets them read every source it drew from', () => {
    const viewer = runReader(policy, { user: 'vic', roles: ['viewer'] }, known);
    const admin = runReader(policy, { user: 'root', roles: ['admin'] }, known);
    expect(viewer(recordOver(['runbooks']))).toBe(true);
    expect(viewer(recordOver(['runbooks', 'payroll']))).toBe(false);
    expect(admin(recordOver(['runbooks', 'payroll']))).toBe(true);
  });

  it('counts cited sources and sources removed since the run', () => {
    const viewer = runReader(policy, { user: 'vic', roles: ['viewer'] }, [source('runbooks')]);
    expect(viewer(recordOver(['runbooks'], ['payroll']))).toBe(false);
    expect(viewer(recordOver(['payroll']))).toBe(false);
    expect(viewer(recordOver(['gone-but-open']))).toBe(true);
    expect(sourcesOfRun({ selectedSources: ['a', 'b'] } as never, ['b', 'c'])).toEqual(['a', 'b', 'c']);
  });
});
