import { and, eq, sql } from 'drizzle-orm';
import type { Database } from '../../../db/client';
import { chunks, sources, sourceVersions } from '../../../db/schema';
import { STORE_CONTRACT, type IngestChunk, type IngestResult, type StoreCapabilities, type StorePlugin } from '../../runtime/contracts/store';
import { ContextRuntimeError, invalidInput } from '../../runtime/errors';
import type { SourceInfo, SourceKind } from '../../runtime/types';
import type { CorpusStats } from './corpus-stats';
import { isBulkLoad, withBm25IndexRebuiltAfter } from './bulk-index-load';
import { DEFAULT_INGEST } from '../../runtime/config/ingest-schema';
import { loadVersionInBatches } from './batched-version-load';
import { insertChunks } from './chunk-insert';
import { type IngestedSource, makeVersionCurrent, openVersion } from './version-open';

const SOURCE_KINDS: readonly SourceKind[] = ['docs', 'logs', 'events', 'metrics', 'git', 'data'];

/** Sources and chunks in Postgres (PGlite or server): the physical half of the Knowledge Layer. */
export class PgStore implements StorePlugin {
  readonly contract = STORE_CONTRACT;
  private readonly changeListeners: ((sourceName: string) => Promise<void>)[] = [];
  private readonly writeListeners: (() => void)[] = [];

  constructor(
    private readonly database: Database,
    private readonly storeCapabilities: StoreCapabilities,
    private readonly corpus?: CorpusStats,
    /** ingest.commit_batch_chunks: chunks per write transaction for a large source; 0 = one transaction. */
    private readonly commitBatchChunks = DEFAULT_INGEST.commit_batch_chunks,
  ) {}

  capabilities(): StoreCapabilities {
    return this.storeCapabilities;
  }

  async listSources(): Promise<readonly SourceInfo[]> {
    const rows = await this.database.db
      .select({ source: sources, version: sourceVersions })
      .from(sources)
      .innerJoin(sourceVersions, eq(sourceVersions.id, sources.currentVersionId))
      .orderBy(sources.name);
    const marked = await this.sensitiveChunksBySource();
    return Object.freeze(
      rows.map(({ source, version }) =>
        Object.freeze({
          name: source.name,
          kind: source.kind as SourceKind,
          versionId: version.id,
          contentHash: version.contentHash,
          chunkCount: version.chunkCount,
          tokenCount: version.tokenCount,
          stale: source.stale,
          ...(source.staleReason ? { staleReason: source.staleReason } : {}),
          sensitive: source.sensitive,
          sensitiveChunks: marked.get(source.id)?.chunks ?? 0,
          sensitiveKinds: Object.freeze(marked.get(source.id)?.kinds ?? []),
          updatedAt: source.updatedAt.toISOString(),
        }),
      ),
    );
  }

  /** Current passages marked sensitive at ingest, per source id: reads only the marked rows (a partial index). */
  private async sensitiveChunksBySource(): Promise<ReadonlyMap<string, { chunks: number; kinds: string[] }>> {
    const rows = await this.database.query<{ source_id: string; chunks: number; kinds: string[] | null }>(sql`
      select chunks.source_id, count(distinct chunks.id)::int as chunks, array_agg(distinct kind order by kind) as kinds
      from chunks cross join lateral unnest(chunks.sensitive_kinds) as kind
      where chunks.is_current and chunks.sensitive group by chunks.source_id`);
    return new Map(rows.map((row) => [row.source_id, { chunks: Number(row.chunks), kinds: row.kinds ?? [] }]));
  }

  /**
   * A source of at most commitBatchChunks chunks is written in one transaction (version row, chunks,
   * is_current flip, superseded_at); a bigger one in short transactions (batched-version-load.ts),
   * so it does not hold the database while others wait: its rows are staged invisible and switched
   * on in batches, so only during that switch may a reader see part of the new version.
   */
  async ingest(source: IngestedSource, ingestChunks: readonly IngestChunk[], contentHash: string, options: { readonly signal?: AbortSignal } = {}): Promise<IngestResult> {
    validateIngest(source, ingestChunks, contentHash);
    const { signal } = options;
    signal?.throwIfAborted();
    const inlineSearchVector = this.storeCapabilities.extensions.pg_textsearch !== true;
    const batched = this.commitBatchChunks > 0 && ingestChunks.length > this.commitBatchChunks;
    // Before the first row is written: a batched load makes rows current before it ends.
    for (const listener of this.writeListeners) listener();
    // The row lock serialises version numbers only inside one transaction; a batched load spans
    // many, so two loads of one source in this process queue here instead.
    const result = await this.inOrder(source.name, () =>
      batched
        ? loadVersionInBatches(this.database, source, ingestChunks, contentHash, { batchRows: this.commitBatchChunks, inlineSearchVector, ...(signal ? { signal } : {}) })
        : this.ingestInOneTransaction(source, ingestChunks, contentHash, inlineSearchVector, signal),
    );
    if (result.changed) {
      await this.corpus?.refresh();
      await this.notifyChanged(source.name);
    }
    return Object.freeze(result);
  }

  private async ingestInOneTransaction(source: IngestedSource, ingestChunks: readonly IngestChunk[], contentHash: string, inlineSearchVector: boolean, signal?: AbortSignal): Promise<IngestResult> {
    const documents = new Set(ingestChunks.map((chunk) => chunk.uri)).size;
    return this.database.db.transaction(async (tx) => {
      const opened = await openVersion(tx, source, ingestChunks, contentHash);
      if (opened.unchanged) return opened.unchanged;
      const { sourceId, versionId } = opened;
      await tx.update(chunks).set({ isCurrent: false }).where(and(eq(chunks.sourceId, sourceId), eq(chunks.isCurrent, true)));
      const insert = () => insertChunks(tx, sourceId, versionId, ingestChunks, { inlineSearchVector });
      if (isBulkLoad(ingestChunks.length, this.corpus?.currentChunks ?? Number.POSITIVE_INFINITY)) await withBm25IndexRebuiltAfter(tx, insert);
      else await insert();
      // Stopped while it wrote: throwing rolls the whole version back.
      signal?.throwIfAborted();
      await makeVersionCurrent(tx, source, opened);
      return { source: source.name, versionId, changed: true, documents, chunks: ingestChunks.length };
    });
  }

  private readonly loading = new Map<string, Promise<unknown>>();

  private async inOrder<T>(name: string, work: () => Promise<T>): Promise<T> {
    const previous = this.loading.get(name) ?? Promise.resolve();
    const next = previous.catch(() => undefined).then(work);
    this.loading.set(name, next);
    try {
      return await next;
    } finally {
      if (this.loading.get(name) === next) this.loading.delete(name);
    }
  }

  /** Called as an ingest starts writing chunks (open-stores: their search vectors are pending until the backfill). */
  onChunksWriting(listener: () => void): void {
    this.writeListeners.push(listener);
  }

  /** Called after a source gets a new version or is marked stale (open-stores wires plan-cache invalidation here). */
  onSourceChanged(listener: (sourceName: string) => Promise<void>): void {
    this.changeListeners.push(listener);
  }

  /** Flags a source whose upstream moved on; the planner drops stale sources and EXPLAIN says why. */
  async markStale(name: string, reason: string): Promise<void> {
    const updated = await this.database.db
      .update(sources)
      .set({ stale: true, staleReason: reason, updatedAt: sql`now()` })
      .where(eq(sources.name, name))
      .returning({ id: sources.id });
    if (updated.length === 0) throw new ContextRuntimeError('UNKNOWN_SOURCE', `unknown source "${name}"`, { field: 'source', details: { source: name } });
    await this.notifyChanged(name);
  }

  private async notifyChanged(sourceName: string): Promise<void> {
    for (const listener of this.changeListeners) await listener(sourceName);
  }
}

function validateIngest(source: { readonly name: string; readonly kind: SourceKind }, ingestChunks: readonly IngestChunk[], contentHash: string): void {
  if (!source.name.trim()) throw invalidInput('source.name', 'must not be empty');
  if (!SOURCE_KINDS.includes(source.kind)) throw invalidInput('source.kind', `must be one of ${SOURCE_KINDS.join(', ')}`, { kind: source.kind });
  if (!contentHash) throw invalidInput('contentHash', 'must not be empty');
  const seen = new Set<string>();
  for (const chunk of ingestChunks) {
    if (!Number.isInteger(chunk.ordinal) || chunk.ordinal < 0) throw invalidInput('chunks.ordinal', 'must be a non-negative integer', { uri: chunk.uri });
    if (!Number.isInteger(chunk.tokens) || chunk.tokens < 0) throw invalidInput('chunks.tokens', 'must be a non-negative integer', { uri: chunk.uri });
    const key = `${chunk.uri}\u0000${chunk.ordinal}`;
    if (seen.has(key)) throw invalidInput('chunks', `duplicate chunk ${chunk.uri}#${chunk.ordinal}`, { uri: chunk.uri, ordinal: chunk.ordinal });
    seen.add(key);
  }
}
