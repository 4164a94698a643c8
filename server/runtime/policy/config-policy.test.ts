import { describe, expect, it } from 'vitest';
import { ruleIntentAnalyzer } from '../planner/intent-analyzer';
import { demoSources } from '../planner/testing/demo-planning-context';
import type { Principal, SourceInfo } from '../types';
import { createConfigPolicy, type ConfigPolicyRules } from './config-policy';

const RULES: ConfigPolicyRules = { sourceRoles: {}, sensitiveSources: [], highRiskRequiresHuman: true, verificationByDefault: false };
const principal: Principal = { user: 'ops', roles: ['operator'] };
const intent = ruleIntentAnalyzer.analyze('Why did the checkout-api deploy fail?');

/** The demo sources with passages marked sensitive at ingest in `name`. */
const withMarked = (name: string, chunks: number, kinds: readonly string[]): SourceInfo[] =>
  demoSources().map((source) => (source.name === name ? { ...source, sensitiveChunks: chunks, sensitiveKinds: kinds } : source));

describe('config policy over passages marked sensitive at ingest', () => {
  const name = demoSources()[0].name;

  it('keeps the plan on local tiers under local_only, and says why with counts and kinds only', () => {
    const decision = createConfigPolicy(RULES).evaluate({ intent, principal, sources: withMarked(name, 3, ['email', 'api_key']) });
    expect(decision.localOnly).toBe(true);
    expect(decision.reasons).toContain(`sensitive passages (${name} 3: email, api_key): local model tiers only (policy.sensitive_content: local_only)`);
  });

  it('under redact lets the plan use any tier and says the passages go out redacted', () => {
    const decision = createConfigPolicy({ ...RULES, sensitiveContent: 'redact' }).evaluate({ intent, principal, sources: withMarked(name, 3, ['email']) });
    expect(decision.localOnly).toBe(false);
    expect(decision.reasons).toContain(`sensitive passages (${name} 3: email): redacted before any non-local model (policy.sensitive_content: redact)`);
  });

  it('ignores marks on a source the principal may not read, and sources without any', () => {
    const guarded = createConfigPolicy({ ...RULES, sourceRoles: { [name]: ['admin'] } }).evaluate({ intent, principal, sources: withMarked(name, 3, ['email']) });
    expect(guarded.localOnly).toBe(false);
    const clean = createConfigPolicy(RULES).evaluate({ intent, principal, sources: demoSources() });
    expect(clean).toMatchObject({ localOnly: false, reasons: [] });
  });
});
