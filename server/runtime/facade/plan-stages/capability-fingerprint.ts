/**
 * The capability part of the plan-cache key: what the plugins can do (retriever and tier
 * availability, tier capabilities) and the config that changes a graph (retrieval, scheduler,
 * verification, the reasoner mixtures and their sizes), plus whether an output_schema is asked for, the measured
 * model-cache rates and the resolved reasoner gains (reasoner-gains.ts). A tier gaining its key, or an extension appearing, must re-plan.
 *
 * The text hashed is exactly `canonicalJson` of that object; the config sections and the tier
 * list are serialised once per object rather than per request (their canonical JSON was most of
 * the `key` stage, bench:plan-overhead). The config is parsed once and never edited in place, and
 * a router's tier list is frozen (tiered-router.ts); availability is re-read every time anyway.
 */
import type { RetrieverCapabilities } from '../../contracts/retriever';
import type { TierInfo } from '../../contracts/router';
import type { RuntimeConfig } from '../../config/config-schema';
import { sha256Hex } from '../../ir/plan-hash';
import { canonicalJson } from '../../ir/serialize-graph';

export interface CapabilityInput {
  readonly retrievers: readonly RetrieverCapabilities[];
  readonly tiers: readonly TierInfo[];
  readonly outputSchema: boolean;
  /** The rounded model-cache rates (cache-hit-rate.ts); absent when the model-context cache is off. */
  readonly modelCacheRates?: string;
  /** The resolved reasoner gains (gainValues of reasoner-gains.ts), on their rounding grid; absent or empty: none. */
  readonly reasonerGains?: Readonly<Record<string, Readonly<Partial<Record<string, number>>>>>;
}

interface ConfigParts {
  /** The reasoner mixtures registered and their sizes (each size is a different graph). */
  readonly mixtures: string;
  readonly retrieval: string;
  readonly scheduler: string;
  readonly verification: string;
}

const configParts = new WeakMap<RuntimeConfig, ConfigParts>();
const tierParts = new WeakMap<readonly TierInfo[], { readonly availability: string; readonly json: string }>();

function partsOf(config: RuntimeConfig): ConfigParts {
  let parts = configParts.get(config);
  if (!parts) {
    const { mixtures, debate_solvers, mixture_workers } = config.models;
    parts = { mixtures: canonicalJson({ mixtures, debate_solvers, mixture_workers }), retrieval: canonicalJson(config.retrieval), scheduler: canonicalJson(config.scheduler), verification: canonicalJson(config.verification) };
    configParts.set(config, parts);
  }
  return parts;
}

function tiersJson(tiers: readonly TierInfo[]): string {
  const availability = tiers.map((tier) => (tier.available ? '1' : '0')).join('');
  const known = tierParts.get(tiers);
  if (known && known.availability === availability) return known.json;
  const json = canonicalJson(tiers.map(({ name, available, capabilities }) => [name, available, capabilities]));
  tierParts.set(tiers, { availability, json });
  return json;
}

/** The canonical JSON the fingerprint hashes (keys in canonicalJson's sorted order). */
export function capabilityText(config: RuntimeConfig, input: CapabilityInput): string {
  const parts = partsOf(config);
  const retrievers = canonicalJson(input.retrievers.map(({ method, available }) => [method, available]));
  const modelCacheRates = input.modelCacheRates === undefined ? '' : `"modelCacheRates":${JSON.stringify(input.modelCacheRates)},`;
  // Gains move with observed runs (rounded to GAIN_STEP), so they are serialised per request, like the cache rates.
  const reasonerGains = input.reasonerGains && Object.keys(input.reasonerGains).length > 0 ? `"reasonerGains":${canonicalJson(input.reasonerGains)},` : '';
  return `{"mixtures":${parts.mixtures},${modelCacheRates}"outputSchema":${input.outputSchema},${reasonerGains}"retrieval":${parts.retrieval},"retrievers":${retrievers},"scheduler":${parts.scheduler},"tiers":${tiersJson(input.tiers)},"verification":${parts.verification}}`;
}

let lastText = '';
let lastFingerprint = '';

/** One-entry memo: the text is the same from plan to plan until a capability, a rate or a gain moves, and comparing it costs less than hashing it. */
export function capabilityFingerprint(config: RuntimeConfig, input: CapabilityInput): string {
  const text = capabilityText(config, input);
  if (text !== lastText) {
    lastFingerprint = sha256Hex(text);
    lastText = text;
  }
  return lastFingerprint;
}
