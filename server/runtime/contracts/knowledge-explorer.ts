/**
 * The Knowledge page's read model and memory lifecycle, as the API and the page see them. The
 * Postgres implementation lives in server/adapters/knowledge (KnowledgeExplorer, MemoryStore); the
 * shapes live here so the knowledge router and components/knowledge depend on a contract, not on
 * an adapter (the layer rules in eslint.config.mjs forbid the latter, types included).
 */

/** A node of the knowledge graph (source version, chunk, fact, memory, summary) as a page shows it. */
export interface KnowledgeNodeView {
  readonly id: string;
  readonly kind: string;
  readonly sourceName: string | null;
  readonly versionNo: number | null;
  readonly subject: string | null;
  readonly attribute: string | null;
  readonly value: string | null;
  readonly text: string | null;
  readonly confidence: number | null;
  readonly status: string;
  readonly statusReason: string | null;
  readonly validFrom: string | null;
  readonly validTo: string | null;
  readonly recordedAt: string;
  readonly expiredAt: string | null;
}

export interface LineageStep extends KnowledgeNodeView {
  readonly depth: number;
  /** The edge that led here from `parentId` (derived_from, or contains read upwards); null for the start node. */
  readonly via: string | null;
  readonly parentId: string | null;
}

export interface Lineage {
  readonly node: KnowledgeNodeView;
  /** Upstream steps, nearest first. */
  readonly chain: readonly LineageStep[];
}

export interface KnowledgeSourceSummary {
  readonly name: string;
  readonly kind: string;
  readonly currentVersionNo: number | null;
  readonly currentVersionId: string | null;
  readonly versions: number;
  readonly chunks: number;
  readonly facts: number;
  /** Subject + attribute pairs on which this source's current facts disagree with another fact. */
  readonly contradictions: number;
  /** Current chunks marked at ingest as holding personal data or secrets (they stay off non-local models). */
  readonly sensitiveChunks: number;
  readonly stale: boolean;
  readonly staleReason: string | null;
}

export interface SourceVersionView {
  readonly id: string;
  readonly versionNo: number;
  readonly contentHash: string;
  readonly chunkCount: number;
  readonly tokenCount: number;
  readonly recordedAt: string;
  readonly supersededAt: string | null;
  /** Status of the version's knowledge node; null when the graph has not mirrored it yet. */
  readonly status: string | null;
  readonly statusReason: string | null;
  readonly facts: number;
}

/** One side of a contradiction: a fact valid now on the disputed key, with its evidence. */
export interface ContradictionFact {
  readonly factId: string;
  readonly value: string;
  readonly sourceName: string;
  readonly chunkId: string;
  readonly locator: string | null;
  readonly evidence: string;
  readonly confidence: number | null;
  readonly validFrom: string | null;
}

/** Every fact valid now on a subject + attribute whose facts contradict each other. */
export interface ContradictionGroup {
  readonly subject: string;
  readonly attribute: string;
  readonly facts: readonly ContradictionFact[];
}

/** A fact as the page lists it under its source: the node plus where in the chunk it was read. */
export type KnowledgeFactView = KnowledgeNodeView & { readonly locator: string | null };

/** Reads of the knowledge graph for the Knowledge page. */
export interface KnowledgeExplorerPort {
  sources(): Promise<readonly KnowledgeSourceSummary[]>;
  versions(sourceName: string): Promise<readonly SourceVersionView[]>;
  facts(sourceName: string): Promise<readonly KnowledgeFactView[]>;
  lineage(nodeId: string): Promise<Lineage>;
  contradictions(sourceName?: string): Promise<readonly ContradictionGroup[]>;
}

export interface AsOf {
  /** Valid time: true in the world at this instant (default now). */
  readonly validAt?: Date;
  /** Transaction time: as recorded by this instant (default now). */
  readonly knownAt?: Date;
}

export interface MemoryFilter {
  readonly subject?: string;
  readonly attribute?: string;
  /** Node kinds to read (default memories only; facts follow the same bi-temporal rules). */
  readonly kinds?: readonly ('memory' | 'fact')[];
}

export interface CompactionReport {
  readonly groups: number;
  readonly merged: number;
}

/** The memory lifecycle (bi-temporal: superseded closes valid time, expired closes transaction time). */
export interface MemoryLifecyclePort {
  promote(factId: string, options: { readonly confidence: number; readonly text?: string; readonly validFrom?: Date }): Promise<KnowledgeNodeView>;
  expire(memoryId: string, options?: { readonly at?: Date; readonly reason?: string }): Promise<KnowledgeNodeView>;
  supersede(
    memoryId: string,
    replacement: { readonly value: string; readonly confidence: number; readonly text?: string; readonly validFrom?: Date; readonly derivedFrom?: readonly string[] },
  ): Promise<KnowledgeNodeView>;
  compact(): Promise<CompactionReport>;
  asOf(when?: AsOf, filter?: MemoryFilter): Promise<readonly KnowledgeNodeView[]>;
}
