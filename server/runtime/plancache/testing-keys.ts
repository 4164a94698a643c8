/**
 * Test helpers shared by the plan-cache tests: keys built the way the facade builds them, through
 * the real rule intent analyzer and config policy, over a small fixed source catalogue.
 */
import { createConfigPolicy } from '../policy/config-policy';
import { ruleIntentAnalyzer } from '../planner/intent-analyzer';
import type { PlanCacheKey } from '../contracts/plan-cache';
import type { SourceInfo } from '../types';
import { sha256Hex } from '../ir/plan-hash';
import { buildPlanCacheKey } from './plan-cache-key';

export const TEST_SOURCES = ['docs', 'logs', 'incidents', 'payroll'] as const;

export const testPolicy = createConfigPolicy({
  sourceRoles: { incidents: ['oncall', 'admin'], payroll: ['finance', 'admin'] },
  sensitiveSources: ['payroll'],
  highRiskRequiresHuman: true,
  verificationByDefault: false,
});

export interface TestRequest {
  readonly goal: string;
  readonly roles: readonly string[];
  readonly budget?: { readonly max_cost_usd?: number; readonly max_latency_seconds?: number };
  /** Version number of each source (a re-ingest bumps it). */
  readonly versions: Readonly<Record<string, number>>;
}

const sourceInfo = (name: string, version: number): SourceInfo => ({
  name,
  kind: name === 'logs' ? 'logs' : 'docs',
  versionId: `${name}-v${version}`,
  contentHash: `${name}-${version}`,
  chunkCount: 10,
  tokenCount: 1000,
  stale: false,
  sensitive: false,
  updatedAt: '2026-11-30T00:00:00.000Z',
});

/** The sources a principal with these roles may read under testPolicy. */
export function readableSources(roles: readonly string[]): readonly string[] {
  return TEST_SOURCES.filter((name) => name !== 'incidents' || roles.some((role) => role === 'oncall' || role === 'admin')).filter((name) => name !== 'payroll' || roles.some((role) => role === 'finance' || role === 'admin'));
}

export function testKey(request: TestRequest): PlanCacheKey {
  const intent = ruleIntentAnalyzer.analyze(request.goal);
  const sources = TEST_SOURCES.map((name) => sourceInfo(name, request.versions[name] ?? 1));
  const principal = { user: 'u', roles: request.roles };
  const policy = testPolicy.evaluate({ intent, principal, sources });
  const allowed = sources.filter((source) => policy.allowedSources.includes(source.name));
  return buildPlanCacheKey({
    intent,
    principal,
    policy,
    allowedSources: allowed.map((source) => source.name),
    sourceFingerprint: sha256Hex(allowed.map((source) => `${source.name}:${source.versionId}`).join('\n')),
    envelope: { constraints: request.budget ?? {}, weights: {}, budgets: {} },
    plannerVersion: 'test-planner',
    capabilityFingerprint: 'test-capabilities',
  });
}
