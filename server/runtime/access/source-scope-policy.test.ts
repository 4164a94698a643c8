import { describe, expect, it } from 'vitest';
import { createConfigPolicy } from '../policy/config-policy';
import type { Intent, SourceInfo } from '../types';
import { principalAccess } from './principal-access';
import { withSourceScope } from './source-scope-policy';

const source = (name: string, sensitive = false): SourceInfo => ({ name, kind: 'docs', versionId: 'v1', contentHash: 'h', chunkCount: 1, stale: false, sensitive, updatedAt: '2026-01-01T00:00:00Z', tokenCount: 10 });
const intent: Intent = { goal: 'g', normalized: 'g', primary: 'conceptual', classes: ['conceptual'], entities: [], identifiers: [], keywords: [], signals: [] };
const policy = withSourceScope(createConfigPolicy({ sourceRoles: { payroll: ['admin'] }, sensitiveSources: [], highRiskRequiresHuman: true, verificationByDefault: false }));
const sources = [source('runbooks'), source('payroll'), source('secrets', true)];

describe('withSourceScope', () => {
  it('leaves a principal without a scope to the wrapped policy', () => {
    const decision = policy.evaluate({ intent, principal: { user: 'root', roles: ['admin'] }, sources });
    expect(decision.allowedSources).toEqual(['runbooks', 'payroll', 'secrets']);
  });

  it('denies every source outside the scope, and the roles still apply inside it', () => {
    const scoped = policy.evaluate({ intent, principal: { user: 'api-key:ab', roles: ['operator'], sourceScope: ['runbooks', 'payroll'] }, sources });
    expect(scoped.allowedSources).toEqual(['runbooks']);
    expect(scoped.deniedSources.map((denied) => denied.source).sort()).toEqual(['payroll', 'secrets']);
    // The sensitive source the key cannot read does not make its plans local-only.
    expect(scoped.localOnly).toBe(false);
  });

  it('gives scoped and unscoped principals different fingerprints (no shared cached plan)', () => {
    const principal = { user: 'root', roles: ['admin'] };
    const whole = policy.evaluate({ intent, principal, sources: [source('runbooks')] });
    const scoped = policy.evaluate({ intent, principal: { ...principal, sourceScope: ['runbooks'] }, sources: [source('runbooks')] });
    expect(scoped.allowedSources).toEqual(whole.allowedSources);
    expect(scoped.fingerprint).not.toBe(whole.fingerprint);
  });

  it('is what the one read check asks: a scoped principal may not read a run or chunk of another source', () => {
    const access = principalAccess(policy, { user: 'api-key:ab', roles: ['admin'], sourceScope: ['runbooks'] }, sources);
    expect(access.readableSources.map((entry) => entry.name)).toEqual(['runbooks']);
    expect(access.mayReadSource('payroll')).toBe(false);
  });
});
