import type { PlanningContext } from '../contracts/candidate-generator';
import type { RetrieverCapabilities } from '../contracts/retriever';
import type { TierInfo } from '../contracts/router';
import { ContextRuntimeError } from '../errors';
import { plannableSources } from '../planner/candidate-dimensions';
import { namedSourceKinds } from '../planner/named-source-kinds';
import { applicableRules, recallPriorFor } from '../planner/rules';
import { type MeasuredCacheRates, measuredCacheRates } from './cache-hit-rate';
import { retrievalSpendOf } from './retrieval-spend';
import type { Intent, SourceKind } from '../types';
import {
  CHARS_PER_TOKEN, COMPRESSION_SECONDS, DEFAULT_CHUNK_TOKENS, DEFAULT_COMPRESSION_SECONDS, DEFAULT_RETRIEVER_LATENCY_MS, DEFAULT_VERIFIER_SECONDS,
  FUSION_GAIN, FUSION_DILUTION, INTENT_RISK, NEUTRAL_RECALL_PRIOR, SCOPE_FOCUS_GAIN, SCOPE_MISS_FACTOR, VERIFIER_SECONDS, clampProbability,
} from './units';

/**
 * Per-goal precomputation for the cost model: lookups by name, per-scope source statistics
 * and per-method-set recall, computed once and memoised on the (immutable) context and
 * intent objects. Estimating a thousand candidates then costs arithmetic only.
 */

export interface ScopeStats {
  readonly meanChunkTokens: number;
  readonly chunks: number;
}

/** What a retrieval method set costs per query, the same for every candidate that uses it. */
export interface RetrievalFacts {
  /** Each method's reported latency (DEFAULT_RETRIEVER_LATENCY_MS when unknown), summed (sequential) and the slowest (parallel). */
  readonly latencySumMs: number;
  readonly latencyMaxMs: number;
  /** Model spend of methods that call one (retrieval-spend.ts). */
  readonly spend: { readonly tokens: number; readonly costUsd: number };
}

export interface CompressionFacts { readonly ratio: number; readonly loss: number; readonly seconds: number }
export interface VerifierFacts { readonly confidencePrior: number; readonly seconds: number }

export class IntentDigest {
  readonly goalTokens: number;
  readonly risk: number;
  private readonly requiredKinds: readonly SourceKind[];
  private readonly recallBySet = new Map<readonly string[] | string, number>();
  private readonly scopeFactorByKinds = new Map<readonly SourceKind[], number>();

  constructor(private readonly intent: Intent, private readonly context: ContextDigest) {
    this.goalTokens = Math.ceil(intent.goal.length / CHARS_PER_TOKEN);
    this.risk = Math.max(0, ...intent.classes.map((intentClass) => INTENT_RISK[intentClass] ?? 0));
    const present = context.presentKinds;
    // A kind the goal names ("which commit…") is required as much as a rule's: a scope without it misses the answer.
    this.requiredKinds = [...applicableRules(intent).flatMap((rule) => rule.scope?.required ?? []), ...namedSourceKinds(intent.goal)].filter((kind) => present.has(kind));
  }

  /** Fused recall prior of a method set (see units.ts). */
  recall(methods: readonly string[]): number {
    const cached = this.recallBySet.get(methods);
    if (cached !== undefined) return cached;
    const key = methods.join('+');
    let value = this.recallBySet.get(key);
    if (value === undefined) {
      let best = 0;
      let sum = 0;
      let missProduct = 1;
      for (const method of methods) {
        const retriever = this.context.retriever(method);
        const prior = retriever ? recallPriorFor(retriever, this.intent.primary, NEUTRAL_RECALL_PRIOR) : 0;
        best = Math.max(best, prior);
        sum += prior;
        missProduct *= 1 - prior;
      }
      // A measured fusion ratio for the pair replaces the formula: fusion is worth what it gained
      // over the better member on labelled queries, and nothing more (issue 16).
      const measured = methods.length === 2 ? this.fusionRatio(methods[0], methods[1]) : undefined;
      const shortfall = best * methods.length - sum;
      value = clampProbability(measured !== undefined ? best * measured : best + FUSION_GAIN * (1 - missProduct - best) - FUSION_DILUTION * shortfall);
      this.recallBySet.set(key, value);
    }
    this.recallBySet.set(methods, value);
    return value;
  }

  /** The pair's measured fusion ratio for this intent's primary class, from either member's capabilities. */
  private fusionRatio(first: string, second: string): number | undefined {
    const intent = this.intent.primary;
    const ratio = this.context.retriever(first)?.fusionRatios?.[second]?.[intent] ?? this.context.retriever(second)?.fusionRatios?.[first]?.[intent];
    return ratio !== undefined && Number.isFinite(ratio) ? ratio : undefined;
  }

  /** Recall factor of a scope: focused scopes that keep the intent's kinds help a little; ones that drop them hurt. */
  scopeFactor(kinds: readonly SourceKind[] | 'all'): number {
    if (kinds === 'all') return 1;
    let factor = this.scopeFactorByKinds.get(kinds);
    if (factor === undefined) {
      factor = this.requiredKinds.every((kind) => kinds.includes(kind)) ? SCOPE_FOCUS_GAIN : SCOPE_MISS_FACTOR;
      this.scopeFactorByKinds.set(kinds, factor);
    }
    return factor;
  }
}

export class ContextDigest {
  readonly presentKinds: ReadonlySet<string>;
  private readonly retrievers = new Map<string, RetrieverCapabilities>();
  private readonly tiers = new Map<string, TierInfo>();
  private readonly compressions = new Map<string, CompressionFacts>();
  private readonly verifiers = new Map<string, VerifierFacts>();
  private readonly reasonerCalls = new Map<string, number>();
  private readonly scopeStats = new Map<readonly SourceKind[] | string, ScopeStats>();
  private readonly retrievalSets = new Map<readonly string[], RetrievalFacts>();
  /** The measured model-cache rates of this context's tallies (the cache-hit estimate reads them per candidate). */
  readonly cacheRates: MeasuredCacheRates;
  private readonly intents = new WeakMap<Intent, IntentDigest>();
  private readonly sources;

  constructor(context: PlanningContext) {
    this.sources = plannableSources(context);
    this.presentKinds = new Set(this.sources.map((source) => source.kind));
    for (const retriever of context.retrievers) this.retrievers.set(retriever.method, retriever);
    for (const tier of context.tiers) this.tiers.set(tier.name, tier);
    for (const compression of context.compressions) {
      this.compressions.set(compression.method, { ratio: compression.expectedRatio, loss: compression.expectedLoss, seconds: COMPRESSION_SECONDS[compression.method] ?? DEFAULT_COMPRESSION_SECONDS });
    }
    if (!this.compressions.has('none')) this.compressions.set('none', { ratio: 1, loss: 0, seconds: 0 });
    for (const verifier of context.verifiers) {
      this.verifiers.set(verifier.method, { confidencePrior: verifier.confidencePrior, seconds: VERIFIER_SECONDS[verifier.method] ?? DEFAULT_VERIFIER_SECONDS });
    }
    if (!this.verifiers.has('none')) this.verifiers.set('none', { confidencePrior: 0, seconds: 0 });
    for (const reasoner of context.reasoners) this.reasonerCalls.set(reasoner.strategy, Math.max(1, reasoner.expectedModelCalls));
    this.cacheRates = measuredCacheRates(context.modelCacheTallies);
  }

  /**
   * Latency and spend of a method set, memoised on the array: the generator hands every candidate
   * of one retrieval set the same `methods` array, so ~1,000 candidates share a handful of entries.
   */
  retrieval(methods: readonly string[]): RetrievalFacts {
    let facts = this.retrievalSets.get(methods);
    if (facts) return facts;
    let latencySumMs = 0;
    let latencyMaxMs = 0;
    for (const method of methods) {
      const latencyMs = this.retrievers.get(method)?.latencyMs ?? DEFAULT_RETRIEVER_LATENCY_MS;
      latencySumMs += latencyMs;
      if (latencyMs > latencyMaxMs) latencyMaxMs = latencyMs;
    }
    facts = { latencySumMs, latencyMaxMs, spend: retrievalSpendOf(methods, (method) => this.retrievers.get(method)) };
    this.retrievalSets.set(methods, facts);
    return facts;
  }

  retriever(method: string): RetrieverCapabilities | undefined {
    return this.retrievers.get(method);
  }

  tier(name: string): TierInfo {
    return this.tiers.get(name) ?? missing('tier', name);
  }

  compression(method: string): CompressionFacts {
    return this.compressions.get(method) ?? missing('compression', method);
  }

  verifier(method: string): VerifierFacts {
    return this.verifiers.get(method) ?? missing('verifier', method);
  }

  modelCalls(strategy: string): number {
    return this.reasonerCalls.get(strategy) ?? missing('reasoner', strategy);
  }

  scope(kinds: readonly SourceKind[] | 'all'): ScopeStats {
    let stats = this.scopeStats.get(kinds);
    if (stats) return stats;
    const key = kinds === 'all' ? 'all' : kinds.join(',');
    stats = this.scopeStats.get(key);
    if (!stats) {
      let tokens = 0;
      let chunks = 0;
      for (const source of this.sources) {
        if (kinds !== 'all' && !kinds.includes(source.kind)) continue;
        tokens += source.tokenCount;
        chunks += source.chunkCount;
      }
      // With no source statistics at all the corpus size is unknown, not zero: assume finalK chunks fill.
      const known = this.sources.length > 0;
      stats = { meanChunkTokens: chunks > 0 && tokens > 0 ? tokens / chunks : DEFAULT_CHUNK_TOKENS, chunks: known ? chunks : Number.POSITIVE_INFINITY };
      this.scopeStats.set(key, stats);
    }
    this.scopeStats.set(kinds, stats);
    return stats;
  }

  private lastIntent?: Intent;
  private lastIntentDigest?: IntentDigest;

  forIntent(intent: Intent): IntentDigest {
    // One-entry front cache, as digestOf's: a goal's ~1,000 candidates ask for the same intent in a row.
    if (intent === this.lastIntent && this.lastIntentDigest) return this.lastIntentDigest;
    let digest = this.intents.get(intent);
    if (!digest) {
      digest = new IntentDigest(intent, this);
      this.intents.set(intent, digest);
    }
    this.lastIntent = intent;
    this.lastIntentDigest = digest;
    return digest;
  }
}

function missing(what: string, name: string): never {
  throw new ContextRuntimeError('INTERNAL', `cost model: candidate names ${what} "${name}", which the planning context does not list`, { details: { [what]: name } });
}

const digests = new WeakMap<PlanningContext, ContextDigest>();

/** The memoised digest of a planning context (contexts are immutable, so identity is a sound key). */
let lastContext: PlanningContext | undefined;
let lastDigest: ContextDigest | undefined;

export function digestOf(context: PlanningContext): ContextDigest {
  // One-entry front cache: a planning run asks for the same context ~1000 times in a row.
  if (context === lastContext && lastDigest) return lastDigest;
  let digest = digests.get(context);
  if (!digest) {
    digest = new ContextDigest(context);
    digests.set(context, digest);
  }
  lastContext = context;
  lastDigest = digest;
  return digest;
}
