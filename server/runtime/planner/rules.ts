import type { RetrieverCapabilities } from '../contracts/retriever';
import type { Intent, IntentClass, SourceKind } from '../types';

/**
 * The planner's rule table: which retrieval families and source kinds each intent class
 * needs, and which gates it forces. Retrieval methods stay strings reported by plugins;
 * rules speak of FAMILIES, and a method's family is read from its capability data, so a
 * new lexical retriever ("tantivy", "opensearch-bm25") obeys the exact-id rule without a
 * code change here.
 */

export type MethodFamily = 'lexical' | 'semantic' | 'graph' | 'exact' | 'other';

/**
 * Capability requirement → family. The store extension a retriever needs is the most
 * reliable evidence of what it does (pg_textsearch is BM25, pgvector is embedding search).
 */
const FAMILY_BY_REQUIREMENT: Readonly<Record<string, MethodFamily>> = {
  pg_textsearch: 'lexical',
  pg_trgm: 'lexical',
  tsvector: 'lexical',
  vector: 'semantic',
  pgvector: 'semantic',
  embedder: 'semantic',
};

/** Method name → family, for retrievers that need no extension (Postgres full-text, exact match). */
const FAMILY_BY_METHOD: Readonly<Record<string, MethodFamily>> = {
  bm25: 'lexical',
  fulltext: 'lexical',
  keyword: 'lexical',
  lexical: 'lexical',
  dense: 'semantic',
  hybrid: 'semantic',
  vector: 'semantic',
  embedding: 'semantic',
  graph: 'graph',
  ppr: 'graph',
  exact: 'exact',
  lookup: 'exact',
};

/** A retriever's family: its method name first (plugins name themselves), then what it requires. */
export function methodFamily(capabilities: RetrieverCapabilities): MethodFamily {
  const byName = FAMILY_BY_METHOD[capabilities.method.toLowerCase()];
  if (byName) return byName;
  for (const requirement of capabilities.requires) {
    const byRequirement = FAMILY_BY_REQUIREMENT[requirement.toLowerCase()];
    if (byRequirement) return byRequirement;
  }
  return 'other';
}

export interface RetrievalRule {
  /** Candidates must use one of these families (first available group wins: the rest are fallbacks). */
  readonly requireAnyOf?: readonly (readonly MethodFamily[])[];
  /** Candidates using ONLY these families are cut, but only when one of `preferred` is available. */
  readonly cutPure?: readonly MethodFamily[];
  readonly preferred?: readonly MethodFamily[];
}

export interface ScopeRule {
  /** Kinds a narrowed scope must include (when the corpus has them). */
  readonly required: readonly SourceKind[];
  /** Kinds the rule's own scope adds when present. */
  readonly optional: readonly SourceKind[];
}

export interface IntentRule {
  readonly intent: IntentClass;
  /** 'primary' rules apply only when the class is the goal's primary class. */
  readonly appliesTo: 'any' | 'primary';
  readonly retrieval?: RetrievalRule;
  readonly scope?: ScopeRule;
  readonly localOnly?: boolean;
  readonly verifierRequired?: boolean;
  readonly approval?: boolean;
  /** Why the rule exists, quoted in EXPLAIN next to each cut. */
  readonly why: string;
}

export const INTENT_RULES: readonly IntentRule[] = Object.freeze([
  {
    // Identifiers are rare tokens: lexical scoring finds them, embeddings blur them
    // (BEIR, Thakur et al. 2021: BM25 beats dense retrievers on entity/id-heavy sets).
    // Full-text is the fallback lexical method; an exact matcher only when no lexical one exists.
    intent: 'exact_id',
    appliesTo: 'any',
    retrieval: { requireAnyOf: [['lexical'], ['exact']] },
    scope: { required: ['logs'], optional: ['events', 'git'] },
    why: 'identifiers are found by lexical match in logs',
  },
  {
    // Paraphrased questions need semantic match; pure lexical sets are cut only when a
    // semantic method can actually run (otherwise lexical is the best there is).
    intent: 'conceptual',
    appliesTo: 'primary',
    retrieval: { cutPure: ['lexical'], preferred: ['semantic'] },
    // Docs describe a system; its repository holds what is actually configured (hosts, limits,
    // concurrency) and when that changed, which docs lag behind: a docs-only scope answered "which
    // database host does ledger-export read from?" from a table that does not say (issue 10).
    scope: { required: ['docs'], optional: ['git', 'data'] },
    why: 'conceptual goals are answered from docs and the configuration in the repository, by semantic match',
  },
  {
    // An incident review needs what happened (logs, events, metrics), what changed (git)
    // and what should happen (docs/runbooks).
    intent: 'incident',
    appliesTo: 'any',
    scope: { required: ['logs', 'git', 'docs'], optional: ['events', 'metrics'] },
    why: 'incident reviews need logs, git history and docs',
  },
  {
    // Multi-hop questions chain facts (HotpotQA); graph or semantic retrieval is preferred,
    // never required: the cost model weighs it through each retriever's recallPrior.
    intent: 'multi_hop',
    appliesTo: 'primary',
    retrieval: { preferred: ['graph', 'semantic'] },
    scope: { required: ['docs'], optional: ['git', 'data'] },
    why: 'multi-hop goals chain facts across documents and the changes that made them true',
  },
  {
    intent: 'high_risk',
    appliesTo: 'any',
    verifierRequired: true,
    approval: true,
    why: 'high-risk goals need a verifier and a human approval gate',
  },
  {
    intent: 'sensitive',
    appliesTo: 'any',
    localOnly: true,
    why: 'sensitive goals may only reach local model tiers',
  },
] satisfies IntentRule[]);

/** The rules that apply to an intent, in table order. */
export function applicableRules(intent: Intent): IntentRule[] {
  return INTENT_RULES.filter((rule) => (rule.appliesTo === 'primary' ? intent.primary === rule.intent : intent.classes.includes(rule.intent)));
}

/** Reads the recall prior of a retriever for an intent, falling back to "default" then a neutral prior. */
export function recallPriorFor(capabilities: RetrieverCapabilities, intent: IntentClass, neutral: number): number {
  const value = capabilities.recallPrior[intent] ?? capabilities.recallPrior.default ?? neutral;
  return Number.isFinite(value) ? Math.min(1, Math.max(0, value)) : neutral;
}
