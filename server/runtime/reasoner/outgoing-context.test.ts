import { describe, expect, it } from 'vitest';
import type { ReasonRequest } from '../contracts/reasoner';
import { ROUTER_CONTRACT, type RouterPlugin, type TierInfo } from '../contracts/router';
import { incidentContext, INCIDENT_QUESTION } from '../../testing/incident-context-fixture';
import type { ContextItem } from '../types';
import { outgoingContext } from './outgoing-context';

const tier = (name: string, local: boolean): TierInfo => ({
  name,
  rank: local ? 0 : 1,
  available: true,
  capabilities: { provider: 'test', modelId: name, contextWindow: 8000, inputUsdPerMillion: 0, outputUsdPerMillion: 0, local, firstTokenSeconds: 0, secondsPerOutputToken: 0, qualityPrior: 0.5, maxOutputTokens: 500 },
});
const router: RouterPlugin = {
  contract: ROUTER_CONTRACT,
  tiers: () => [tier('local', true), tier('hosted', false)],
  countTokens: (_tier, text) => text.length,
  complete: () => Promise.reject(new Error('not called')),
};

/** The incident context with a secret planted in its second passage. */
function contextWithSecret(): readonly ContextItem[] {
  const items = incidentContext();
  return items.map((item, index) => (index === 1 ? { ...item, text: `${item.text} Deploy key AKIAIOSFODNN7EXAMPLE.` } : item));
}

const request = (overrides: Partial<ReasonRequest>): ReasonRequest => ({
  goal: INCIDENT_QUESTION, context: contextWithSecret(), tier: 'hosted', requireCitations: true, localOnly: false, maxOutputTokens: 300, timeoutMs: 5_000, ...overrides,
});

describe('outgoingContext', () => {
  it('holds a passage with a secret back from a non-local tier, keeping the others and their refs', () => {
    const outgoing = outgoingContext(request({}), router);
    expect(outgoing.withheld).toBe(1);
    expect(outgoing.localOnly).toBe(false);
    expect(outgoing.context.some((item) => item.text.includes('AKIA'))).toBe(false);
    expect(outgoing.context.map((item) => item.ref)).toEqual(contextWithSecret().filter((_, index) => index !== 1).map((item) => item.ref));
  });

  it('keeps the whole call local (no fallback to a hosted tier) when the tier is local', () => {
    expect(outgoingContext(request({ tier: 'local' }), router)).toMatchObject({ localOnly: true, withheld: 0 });
  });

  it('holds back a sensitive source’s passages, whatever their text', () => {
    const source = contextWithSecret()[0].hit.sourceName;
    const outgoing = outgoingContext(request({ context: incidentContext(), sensitiveSources: [source] }), router);
    expect(outgoing.context.every((item) => item.hit.sourceName !== source)).toBe(true);
  });

  it('under redact sends content-sensitive passages on, their spans replaced', () => {
    const outgoing = outgoingContext(request({ sensitiveContent: 'redact' }), router);
    expect(outgoing).toMatchObject({ withheld: 0, redacted: 1, localOnly: false });
    expect(outgoing.context[1].text).toContain('[REDACTED api_key]');
    expect(outgoing.context.some((item) => item.text.includes('AKIA'))).toBe(false);
  });

  it('trusts the mark stored at ingest where compression cut the secret out of reach of a re-scan', () => {
    const items = incidentContext();
    const key = 'b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQ';
    const stored = `${items[2].hit.text}\n-----BEGIN OPENSSH PRIVATE KEY-----\n${key}\n-----END OPENSSH PRIVATE KEY-----`;
    // Sentence selection kept the key's body line alone: no pattern matches it any more.
    const compressed = items.map((item, index) => (index === 2 ? { ...item, hit: { ...item.hit, text: stored, sensitive: true }, text: `${item.text} ${key}`, compressed: true } : item));
    const withheld = outgoingContext(request({ context: compressed }), router);
    expect(withheld.withheld).toBe(1);
    expect(withheld.context.some((item) => item.text.includes(key))).toBe(false);
    const redacted = outgoingContext(request({ context: compressed, sensitiveContent: 'redact' }), router);
    expect(redacted.redacted).toBe(1);
    expect(redacted.context.some((item) => item.text.includes(key))).toBe(false);
  });

  it('changes nothing for a clean context or a local-only request', () => {
    expect(outgoingContext(request({ context: incidentContext() }), router)).toMatchObject({ withheld: 0, localOnly: false });
    expect(outgoingContext(request({ localOnly: true }), router)).toMatchObject({ withheld: 0, localOnly: true });
  });
});
