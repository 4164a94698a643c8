import type { PlanningContext } from '../../contracts/candidate-generator';
import type { PolicyDecision } from '../../contracts/policy';
import type { RetrieverCapabilities } from '../../contracts/retriever';
import type { TierInfo } from '../../contracts/router';
import type { SourceInfo } from '../../types';

/**
 * A PlanningContext shaped like the demo install (five sources, four retrievers, three
 * tiers) for planner tests and bench/planner-bench.ts. The numbers are plausible priors,
 * not measurements; the planner under test must only depend on them through the contracts.
 */

export const DENSE_UNAVAILABLE_REASON = 'extension vector is not installed on this server';

export function demoRetrievers(options: { denseAvailable?: boolean } = {}): RetrieverCapabilities[] {
  const denseAvailable = options.denseAvailable ?? true;
  return [
    { method: 'bm25', available: true, requires: ['pg_textsearch'], latencyMs: 12, recallPrior: { exact_id: 0.85, incident: 0.7, conceptual: 0.55, multi_hop: 0.45, default: 0.6 } },
    { method: 'fulltext', available: true, requires: [], latencyMs: 8, recallPrior: { exact_id: 0.75, incident: 0.6, conceptual: 0.5, multi_hop: 0.4, default: 0.5 } },
    {
      method: 'dense',
      available: denseAvailable,
      unavailableReason: denseAvailable ? undefined : DENSE_UNAVAILABLE_REASON,
      requires: ['vector'],
      latencyMs: 25,
      recallPrior: { exact_id: 0.4, incident: 0.6, conceptual: 0.8, multi_hop: 0.6, default: 0.65 },
    },
    { method: 'exact', available: true, requires: [], latencyMs: 4, recallPrior: { exact_id: 0.9, default: 0.1 }, sourceKinds: ['logs', 'events', 'git'] },
  ];
}

const capabilities = (overrides: Partial<TierInfo['capabilities']>): TierInfo['capabilities'] => ({
  provider: 'extractive',
  modelId: 'extractive-reader',
  contextWindow: 8192,
  inputUsdPerMillion: 0,
  outputUsdPerMillion: 0,
  local: true,
  firstTokenSeconds: 0.05,
  secondsPerOutputToken: 0.0005,
  qualityPrior: 0.45,
  maxOutputTokens: 512,
  ...overrides,
});

export function demoTiers(options: { premiumAvailable?: boolean } = {}): TierInfo[] {
  const premiumAvailable = options.premiumAvailable ?? true;
  return [
    { name: 'local', rank: 0, available: true, capabilities: capabilities({}) },
    {
      name: 'cheap',
      rank: 1,
      available: true,
      capabilities: capabilities({ provider: 'openai', modelId: 'gpt-4o-mini', contextWindow: 128_000, inputUsdPerMillion: 0.15, outputUsdPerMillion: 0.6, local: false, firstTokenSeconds: 0.5, secondsPerOutputToken: 0.012, qualityPrior: 0.72, maxOutputTokens: 4096 }),
    },
    {
      name: 'premium',
      rank: 2,
      available: premiumAvailable,
      unavailableReason: premiumAvailable ? undefined : 'environment variable ANTHROPIC_API_KEY is not set',
      capabilities: capabilities({ provider: 'anthropic', modelId: 'claude-sonnet', contextWindow: 200_000, inputUsdPerMillion: 3, outputUsdPerMillion: 15, local: false, firstTokenSeconds: 1.2, secondsPerOutputToken: 0.02, qualityPrior: 0.9, maxOutputTokens: 8192 }),
    },
  ];
}

const source = (name: string, kind: SourceInfo['kind'], chunkCount: number, tokenCount: number, sensitive = false): SourceInfo => ({
  name,
  kind,
  versionId: `${name}-v1`,
  contentHash: `hash-${name}`,
  chunkCount,
  stale: false,
  sensitive,
  updatedAt: '2025-01-01T00:00:00.000Z',
  tokenCount,
});

export function demoSources(): SourceInfo[] {
  return [
    source('runbooks', 'docs', 120, 30_000),
    source('kubernetes-logs', 'logs', 800, 96_000),
    source('kubernetes-events', 'events', 200, 16_000),
    source('grafana', 'metrics', 150, 15_000),
    source('github', 'git', 300, 45_000),
  ];
}

export function openPolicy(sources: readonly SourceInfo[], overrides: Partial<PolicyDecision> = {}): PolicyDecision {
  return {
    allowedSources: sources.map((entry) => entry.name),
    deniedSources: [],
    localOnly: false,
    requireApproval: false,
    requireVerification: false,
    reasons: [],
    fingerprint: 'policy-open',
    ...overrides,
  };
}

export function demoPlanningContext(
  options: { denseAvailable?: boolean; premiumAvailable?: boolean; policy?: Partial<PolicyDecision>; sources?: SourceInfo[] } = {},
): PlanningContext {
  const sources = options.sources ?? demoSources();
  return {
    retrievers: demoRetrievers(options),
    tiers: demoTiers(options),
    sources,
    policy: openPolicy(sources, options.policy),
    reasoners: [
      { strategy: 'single_shot', expectedModelCalls: 1 },
      { strategy: 'plan_worker_critic', expectedModelCalls: 3 },
    ],
    compressions: [
      { method: 'none', expectedRatio: 1, expectedLoss: 0 },
      { method: 'clip', expectedRatio: 0.6, expectedLoss: 0.08 },
      { method: 'dedup_clip', expectedRatio: 0.5, expectedLoss: 0.06 },
      { method: 'sentence_select', expectedRatio: 0.35, expectedLoss: 0.12 },
    ],
    verifiers: [
      { method: 'citation', confidencePrior: 0.7 },
      { method: 'citation_grounded', confidencePrior: 0.85 },
    ],
    retrieval: { topK: 20, finalK: 8 },
  };
}
