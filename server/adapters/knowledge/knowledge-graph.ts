/**
 * Keeps the Knowledge Layer's graph in step with the store. `syncSource` is the ingest hook: it is
 * idempotent and cheap when nothing changed, so it can run after every ingest and once at start-up
 * (syncAll) for data ingested before the hook existed. PgStore writes versions and chunks; this
 * mirrors them as nodes, retires superseded versions (staleness), extracts facts and refreshes
 * contradictions. Chunk nodes and facts, which grow with the version, are written first in short
 * idempotent statements (a 50,000-file version in one transaction held every request for seconds,
 * issue 13); the version nodes, which mark a version mirrored, retirement and contradictions follow
 * in one transaction per source.
 */
import { sql } from 'drizzle-orm';
import type { Database } from '../../../db/client';
import { ContextRuntimeError } from '../../runtime/errors';
import { linkDerivations } from './derivation-links';
import { closeSupersededFacts, factsOfVersion, insertFacts, refreshContradictions } from './fact-writer';
import { jsonList, randomNodeId } from './knowledge-rows';
import { mirrorChunks, mirrorVersion, retireVersion, retirementReasons, type SourceRow, staleDerivedVersions, type VersionRow } from './version-mirror';

export interface SyncReport {
  readonly source: string;
  readonly mirroredVersions: number;
  readonly mirroredChunks: number;
  readonly facts: number;
  /** Nodes (facts, summaries, memories, derived chunks) that turned stale. */
  readonly staleNodes: number;
  /** Other sources flagged stale because their content was derived from a retired version. */
  readonly staleSources: readonly { readonly name: string; readonly reason: string }[];
  readonly contradictionsAdded: number;
  readonly milliseconds: number;
}

export interface KnowledgeGraphOptions {
  /** Flags a derived source stale (PgStore.markStale: the planner then rejects it with the reason). */
  readonly markSourceStale?: (name: string, reason: string) => Promise<void>;
}

export class KnowledgeGraph {
  constructor(
    private readonly database: Database,
    private readonly options: KnowledgeGraphOptions = {},
  ) {}

  async syncAll(): Promise<readonly SyncReport[]> {
    const names = await this.database.query<{ name: string }>(sql`select name from sources order by name`);
    const reports: SyncReport[] = [];
    for (const { name } of names) reports.push(await this.syncSource(name));
    return Object.freeze(reports);
  }

  async syncSource(name: string): Promise<SyncReport> {
    const started = performance.now();
    const [source] = await this.database.query<SourceRow>(sql`select id, name, kind from sources where name = ${name}`);
    if (!source) throw new ContextRuntimeError('UNKNOWN_SOURCE', `unknown source "${name}"`, { field: 'source', details: { source: name } });
    // Raw statements return timestamps as text on both drivers; the reasons print them as ISO.
    const versions: VersionRow[] = (
      await this.database.query<VersionRow>(sql`
        select v.id, v.version_no, v.content_hash, v.chunk_count, v.recorded_at, v.superseded_at, n.status as node_status
        from source_versions v left join knowledge_nodes n on n.id = v.id
        where v.source_id = ${source.id} order by v.version_no`)
    ).map((row) => ({ ...row, version_no: Number(row.version_no), recorded_at: new Date(row.recorded_at), superseded_at: row.superseded_at === null ? null : new Date(row.superseded_at) }));
    const toMirror = versions.filter((version) => version.node_status === null);
    // Also superseded versions mirrored only now: content of another source may already point at
    // them (derived while the hook was not running), and must still turn stale.
    const toRetire = versions.filter((version) => version.superseded_at !== null && (version.node_status === 'current' || version.node_status === null));
    const empty = { source: name, mirroredVersions: 0, mirroredChunks: 0, facts: 0, staleNodes: 0, staleSources: [], contradictionsAdded: 0 };
    if (toMirror.length === 0 && toRetire.length === 0) return Object.freeze({ ...empty, milliseconds: performance.now() - started });

    const current = toMirror.find((version) => version.superseded_at === null);
    let mirroredChunks = 0;
    for (const version of toMirror) mirroredChunks += await mirrorChunks(this.database, version);
    const facts = current ? await factsOfVersion(this.database, source.kind, current.id) : [];
    if (current) await insertFacts(this.database, source.id, current.id, facts);
    const outcome = await this.database.db.transaction(async (tx) => {
      for (const version of toMirror) await mirrorVersion(tx, source, version, versions.filter((other) => other.version_no < version.version_no).at(-1));
      if (current) await linkDerivations(tx, current.id);
      let staleNodes = 0;
      const staleSources: { name: string; reason: string }[] = [];
      for (const old of toRetire) {
        const successor = versions.find((other) => other.version_no > old.version_no)!;
        const reasons = retirementReasons(source, old, successor);
        const stale = await retireVersion(tx, source, old, successor, reasons);
        staleNodes += stale.length;
        staleSources.push(...(await staleDerivedVersions(tx, source, stale, reasons)));
      }
      await closeSupersededFacts(tx, source.id);
      const contradictionsAdded = await refreshContradictions(tx, [source.id]);
      return { staleNodes, staleSources, contradictionsAdded };
    });
    // After the commit: markStale notifies PgStore's listeners, which may call back into this graph.
    for (const derived of outcome.staleSources) await this.options.markSourceStale?.(derived.name, derived.reason);
    return Object.freeze({
      ...empty,
      mirroredVersions: toMirror.length,
      mirroredChunks,
      facts: facts.length,
      staleNodes: outcome.staleNodes,
      staleSources: Object.freeze(outcome.staleSources),
      contradictionsAdded: outcome.contradictionsAdded,
      milliseconds: performance.now() - started,
    });
  }

  /**
   * A summary (compression output, an LLM digest) with derived_from edges to what it summarises.
   * Born stale when any origin is already superseded or stale: it would describe old content.
   * Node and edges in one statement (a data-modifying CTE commits whole): every answered run records
   * one, and a transaction's BEGIN, two inserts and COMMIT were four round trips (bench:loc --queries).
   */
  async recordSummary(summary: { readonly text: string; readonly derivedFrom: readonly string[]; readonly subject?: string; readonly metadata?: Readonly<Record<string, unknown>> }): Promise<string> {
    if (summary.derivedFrom.length === 0) throw new ContextRuntimeError('INVALID_INPUT', 'derivedFrom: a summary must name what it was derived from', { field: 'derivedFrom' });
    const id = randomNodeId('sum');
    await this.database.query(sql`
      with node as (
        insert into knowledge_nodes (id, kind, subject, text, metadata, status, expired_at, status_reason)
        select ${id}, 'summary', ${summary.subject ?? null}, ${summary.text}, ${JSON.stringify(summary.metadata ?? {})}::jsonb,
               case when count(*) filter (where status in ('superseded', 'stale')) > 0 then 'stale' else 'current' end,
               case when count(*) filter (where status in ('superseded', 'stale')) > 0 then now() end,
               string_agg(case when status in ('superseded', 'stale') then id || ' is ' || status end, '; ')
        from knowledge_nodes where id in ${jsonList(summary.derivedFrom)}
        returning id
      )
      insert into knowledge_edges (from_id, to_id, kind)
      select node.id, value, 'derived_from' from node, jsonb_array_elements_text(${JSON.stringify(summary.derivedFrom)}::jsonb)
      on conflict do nothing`);
    return id;
  }
}
