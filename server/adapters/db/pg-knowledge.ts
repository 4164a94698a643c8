import { eq, inArray, sql } from 'drizzle-orm';
import type { Database } from '../../../db/client';
import { sources, sourceVersions } from '../../../db/schema';
import { KNOWLEDGE_CONTRACT, type Contradiction, type KnowledgePlugin } from '../../runtime/contracts/knowledge';
import { ContextRuntimeError } from '../../runtime/errors';
import type { SourceInfo } from '../../runtime/types';
import { contradictionGroups, toContradiction } from '../knowledge/contradiction-query';
import { PgCompressedContextStore } from '../knowledge/compressed-context-store';
import { KnowledgeExplorer } from '../knowledge/knowledge-explorer';
import { KnowledgeGraph, type SyncReport } from '../knowledge/knowledge-graph';
import { MemoryStore } from '../knowledge/memory-store';
import { sha256Hex } from './ids';
import type { PgStore } from './pg-store';

/** Fingerprints remembered for the plan cache's source-name lookup; plenty for one process's distinct source sets. */
const REMEMBERED_FINGERPRINTS = 1024;

/** Provenance and versions over the Postgres store. */
export class PgKnowledge implements KnowledgePlugin {
  readonly contract = KNOWLEDGE_CONTRACT;
  private readonly namesByFingerprint = new Map<string, readonly string[]>();
  /** Writes the graph: the ingest hook (syncSource) and summaries. */
  readonly graph: KnowledgeGraph;
  /** Reads for the Knowledge page (versions, facts, lineage, contradictions). */
  readonly explorer: KnowledgeExplorer;
  readonly memories: MemoryStore;
  /** Compressed contexts kept with their lineage, served again while their sources are current. */
  readonly compressedContexts: PgCompressedContextStore;

  constructor(
    private readonly database: Database,
    private readonly store: PgStore,
  ) {
    this.graph = new KnowledgeGraph(database, { markSourceStale: (name, reason) => store.markStale(name, reason) });
    this.explorer = new KnowledgeExplorer(database);
    this.memories = new MemoryStore(database);
    this.compressedContexts = new PgCompressedContextStore(database, this.graph);
  }

  /**
   * The store's sources, with staleness also read from the graph: a source whose current version
   * node turned stale (derived from a superseded upstream) is reported stale even if the flag on
   * `sources` was never set (e.g. no markStale wiring), so the planner rejects it with the reason.
   */
  async sources(): Promise<readonly SourceInfo[]> {
    const listed = await this.store.listSources();
    const staleRows = await this.database.query<{ id: string; status_reason: string | null }>(
      sql`select id, status_reason from knowledge_nodes where kind = 'source' and status = 'stale'`,
    );
    if (staleRows.length === 0) return listed;
    const staleVersions = new Map(staleRows.map((row) => [row.id, row.status_reason ?? 'derived from a superseded version']));
    return Object.freeze(
      listed.map((source) =>
        source.stale || !staleVersions.has(source.versionId) ? source : Object.freeze({ ...source, stale: true, staleReason: staleVersions.get(source.versionId)! }),
      ),
    );
  }

  /** The ingest hook: call after every ingest (PgStore.onSourceChanged) and once at start-up (syncAll). */
  syncSource(name: string): Promise<SyncReport> {
    return this.graph.syncSource(name);
  }

  syncAll(): Promise<readonly SyncReport[]> {
    return this.graph.syncAll();
  }

  /** sha256 over the sorted "name:versionId:contentHash" lines: changes exactly when a named source gets a new version. */
  async fingerprint(sourceNames: readonly string[]): Promise<string> {
    const names = [...new Set(sourceNames)].sort();
    const rows = names.length
      ? await this.database.db
          .select({ name: sources.name, versionId: sourceVersions.id, contentHash: sourceVersions.contentHash })
          .from(sources)
          .innerJoin(sourceVersions, eq(sourceVersions.id, sources.currentVersionId))
          .where(inArray(sources.name, names))
      : [];
    const byName = new Map(rows.map((row) => [row.name, row]));
    const unknown = names.filter((name) => !byName.has(name));
    if (unknown.length > 0) {
      throw new ContextRuntimeError('UNKNOWN_SOURCE', `unknown source${unknown.length > 1 ? 's' : ''}: ${unknown.join(', ')}`, {
        field: 'sources',
        details: { sources: unknown },
      });
    }
    const fingerprint = sha256Hex(names.map((name) => `${name}:${byName.get(name)!.versionId}:${byName.get(name)!.contentHash}`).join('\n'));
    this.remember(fingerprint, names);
    return fingerprint;
  }

  /** Contradictions touching the given chunks (at least one side drawn from them), all current values listed. */
  /** The answer as a summary node; its subject is the goal, so the Knowledge page can say what it answered. */
  async recordAnswer(answer: { readonly runId: string; readonly goal: string; readonly text: string; readonly chunkIds: readonly string[] }): Promise<string> {
    return this.graph.recordSummary({ text: answer.text, derivedFrom: answer.chunkIds, subject: `answer to: ${answer.goal}`.slice(0, 500), metadata: { runId: answer.runId } });
  }

  async contradictions(chunkIds: readonly string[]): Promise<readonly Contradiction[]> {
    const preferred = new Set(chunkIds);
    return Object.freeze((await contradictionGroups(this.database, { chunkIds })).map((group) => toContradiction(group, preferred)));
  }

  /** Contradictions among facts of the named sources only (a plan's selected sources), for EXPLAIN before any chunk is retrieved. */
  async contradictionsAmong(sourceNames: readonly string[]): Promise<readonly Contradiction[]> {
    const named = new Set(sourceNames);
    const groups = (await contradictionGroups(this.database, { sourceNames })).map((group) => ({ ...group, facts: group.facts.filter((fact) => named.has(fact.sourceName)) }));
    return Object.freeze(groups.filter((group) => new Set(group.facts.map((fact) => fact.value)).size > 1).map((group) => toContradiction(group)));
  }

  /** The source names behind a fingerprint this process computed, for PgPlanCache.put. */
  namesOf(fingerprint: string): readonly string[] | undefined {
    return this.namesByFingerprint.get(fingerprint);
  }

  private remember(fingerprint: string, names: readonly string[]): void {
    this.namesByFingerprint.delete(fingerprint);
    this.namesByFingerprint.set(fingerprint, Object.freeze(names));
    if (this.namesByFingerprint.size > REMEMBERED_FINGERPRINTS) {
      const oldest = this.namesByFingerprint.keys().next().value;
      if (oldest !== undefined) this.namesByFingerprint.delete(oldest);
    }
  }
}
