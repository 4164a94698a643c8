import { describe, expect, it } from 'vitest';
import type { RetrieverCapabilities } from '../../contracts/retriever';
import type { TierInfo } from '../../contracts/router';
import { parseConfig } from '../../config/load-config';
import { sha256Hex } from '../../ir/plan-hash';
import { canonicalJson } from '../../ir/serialize-graph';
import { capabilityFingerprint, capabilityText, type CapabilityInput } from './capability-fingerprint';
import type { RuntimeConfig } from '../../config/config-schema';

/** The fingerprint as plan-key-stage computed it before it was memoised: one canonicalJson of everything. */
const direct = (config: RuntimeConfig, input: CapabilityInput): string =>
  sha256Hex(
    canonicalJson({
      mixtures: { mixtures: config.models.mixtures, debate_solvers: config.models.debate_solvers, mixture_workers: config.models.mixture_workers },
      retrievers: input.retrievers.map(({ method, available }) => [method, available]),
      tiers: input.tiers.map(({ name, available, capabilities }) => [name, available, capabilities]),
      retrieval: config.retrieval,
      scheduler: config.scheduler,
      verification: config.verification,
      outputSchema: input.outputSchema,
      modelCacheRates: input.modelCacheRates,
      reasonerGains: input.reasonerGains && Object.keys(input.reasonerGains).length > 0 ? input.reasonerGains : undefined,
    }),
  );

const retriever = (method: string, available: boolean) => ({ method, available }) as unknown as RetrieverCapabilities;
const tier = (name: string, available: boolean): TierInfo =>
  Object.freeze({ name, rank: 0, available, capabilities: Object.freeze({ modelId: `${name}-model`, local: name === 'local', contextWindow: 8192, maxOutputTokens: 512 }) }) as unknown as TierInfo;

describe('capabilityFingerprint', () => {
  const config = parseConfig({});
  const tiers = Object.freeze([tier('local', true), tier('premium', false)]);
  const base: CapabilityInput = { retrievers: [retriever('bm25', true), retriever('dense', false)], tiers, outputSchema: false };

  it('hashes the same text as one canonicalJson of the whole envelope, with and without model-cache rates', () => {
    for (const input of [base, { ...base, outputSchema: true }, { ...base, modelCacheRates: 'abc"def' }, { ...base, reasonerGains: { decomposition: { multi_hop: 0.04 } } }]) {
      expect(capabilityText(config, input)).toBe(canonicalJson(JSON.parse(capabilityText(config, input))));
      expect(capabilityFingerprint(config, input)).toBe(direct(config, input));
    }
  });

  it('changes with retriever availability, the config sections and tier availability, memo or not', () => {
    const first = capabilityFingerprint(config, base);
    expect(capabilityFingerprint(config, { ...base, retrievers: [retriever('bm25', true), retriever('dense', true)] })).not.toBe(first);
    const otherConfig = parseConfig({ retrieval: { top_k: 7 } });
    expect(capabilityFingerprint(otherConfig, base)).toBe(direct(otherConfig, base));
    expect(capabilityFingerprint(otherConfig, base)).not.toBe(first);
    // A plan cached with a three-solver debate is not served once debates have two, or mixtures are off.
    for (const models of [{ debate_solvers: 3 }, { mixture_workers: 2 }, { mixtures: false }]) {
      const mixtureConfig = parseConfig({ models: { tiers: config.models.tiers, ...models } });
      expect(capabilityFingerprint(mixtureConfig, base), JSON.stringify(models)).not.toBe(first);
    }
    // A router whose tier list is edited in place (not frozen) is re-read when availability moves.
    const mutable = [tier('local', true), { ...tier('premium', false) }] as TierInfo[];
    const before = capabilityFingerprint(config, { ...base, tiers: mutable });
    (mutable[1] as { available: boolean }).available = true;
    expect(capabilityFingerprint(config, { ...base, tiers: mutable })).not.toBe(before);
    expect(capabilityFingerprint(config, { ...base, tiers: mutable })).toBe(direct(config, { ...base, tiers: mutable }));
  });

  it('changes when a resolved reasoner gain moves (observed runs re-plan once a gain crosses its grid step)', () => {
    const gains = (value: number) => capabilityFingerprint(config, { ...base, reasonerGains: { decomposition: { multi_hop: value } } });
    expect(gains(0.04)).toBe(gains(0.04));
    expect(gains(0.05)).not.toBe(gains(0.04));
    expect(capabilityFingerprint(config, { ...base, reasonerGains: {} })).toBe(capabilityFingerprint(config, base));
  });
});
