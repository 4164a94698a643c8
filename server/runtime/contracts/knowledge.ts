import type { SourceInfo } from '../types';
import type { CompressedContextStore } from './compression';
import type { KnowledgeExplorerPort, MemoryLifecyclePort } from './knowledge-explorer';

/** Contract version of the Knowledge plugin. */
export const KNOWLEDGE_CONTRACT = 'knowledge/v1' as const;

/** A fact in the Knowledge Layer that disagrees with another on the same subject and attribute. */
export interface Contradiction {
  readonly subject: string;
  readonly attribute: string;
  readonly values: readonly { readonly value: string; readonly sourceName: string; readonly chunkId: string }[];
}

/** Provenance, versions and staleness over the store: "where did this come from, is it still true?" */
export interface KnowledgePlugin {
  readonly contract: typeof KNOWLEDGE_CONTRACT;
  sources(): Promise<readonly SourceInfo[]>;
  /** Deterministic fingerprint of the named sources' current versions (the plan-cache key part). */
  fingerprint(sourceNames: readonly string[]): Promise<string>;
  /** Contradictions among facts drawn from the given chunks. */
  contradictions(chunkIds: readonly string[]): Promise<readonly Contradiction[]>;
  /** Contradictions among the current facts of the named sources (for EXPLAIN, before anything is retrieved). */
  contradictionsAmong?(sourceNames: readonly string[]): Promise<readonly Contradiction[]>;
  /**
   * Keeps a completed run's cited answer as a summary node derived_from the chunks it cites, so a
   * new version of any cited source marks the answer stale, like any other derived knowledge.
   * Returns the node id. Optional: a knowledge plugin without a graph records nothing.
   */
  recordAnswer?(answer: { readonly runId: string; readonly goal: string; readonly text: string; readonly chunkIds: readonly string[] }): Promise<string>;
  /** Compressed contexts kept with their lineage and served again while current (PgKnowledge); absent = every compression is computed afresh. */
  readonly compressedContexts?: CompressedContextStore;
  /** The Knowledge page's reads (PgKnowledge has them); a plugin without a graph has no page. */
  readonly explorer?: KnowledgeExplorerPort;
  /** The memory lifecycle (PgKnowledge has it); absent where there are no memories to manage. */
  readonly memories?: MemoryLifecyclePort;
}
