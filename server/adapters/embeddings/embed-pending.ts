import { type SQL, sql } from 'drizzle-orm';
import type { Database } from '../../../db/client';
import type { EmbedderPlugin } from '../../runtime/contracts/embedder';
import { ContextRuntimeError } from '../../runtime/errors';
import { redactSensitive, type SensitiveContentMode } from '../../runtime/policy/sensitive-content-detector';
import { StatementPacer } from '../db/statement-pacer';
import { dropHnswIndex, ensureHnswIndex, toVectorLiteral } from './embedding-table';

export interface EmbedPendingReport {
  readonly embedderId: string;
  readonly embedded: number;
  readonly batches: number;
  readonly milliseconds: number;
  /** False when the embedder is not known to be local, so chunks of sensitive sources were left out. */
  readonly includedSensitive: boolean;
  /**
   * Current passages marked sensitive at ingest that this non-local embedder was not given
   * (policy.sensitive_content: local_only), and why: dense search cannot find them; the lexical
   * and graph retrievers still do.
   */
  readonly withheldSensitive: number;
  readonly withheldReason?: string;
}

export interface EmbedPendingOptions {
  /**
   * Chunks per embed call and INSERT. 256 keeps a remote provider's request well under its
   * input limits (OpenAI: 2,048 inputs) and one JSON parameter per INSERT small.
   */
  readonly batchSize?: number;
  /** Embed chunks of sensitive sources too; defaults to `embedder.local === true`. */
  readonly includeSensitive?: boolean;
  /**
   * A passage marked sensitive, for a non-local embedder: left unembedded (local_only, the default)
   * or sent with its spans replaced by their kind (redact). A local embedder gets every passage whole.
   */
  readonly sensitiveContent?: SensitiveContentMode;
  readonly onProgress?: (embedded: number) => void;
  /**
   * The server is answering requests meanwhile (an ingest, not the start-up catch-up): keep the
   * HNSW index live instead of dropping and rebuilding it, in small batches with the event loop
   * turning between them. The rebuild is one statement over every row (2.0 s for 5,183 chunks,
   * so tens of seconds for a 50,000-file ingest) during which PGlite answers nobody, sign-in included.
   */
  readonly live?: boolean;
  /** Aborted (an ingest cancelled or past its time): the provider call in flight is aborted, and no next batch starts. */
  readonly signal?: AbortSignal;
}

const DEFAULT_BATCH = 256;
/**
 * Live-index batches start here and then follow a time budget (statement-pacer.ts): ~1.8 ms per
 * row into a live HNSW index on an idle core (568 chunks/s below), but 64 rows took up to 693 ms
 * in bench:ingest-load with the machine loaded, each of them a stall for every request.
 */
const LIVE_BATCH = 16;

/**
 * From this many pending chunks the HNSW index is dropped and rebuilt after the load: measured
 * on PGlite 0.5.14 over SciFact (5,183 abstracts, SIF): 568 chunks/s inserting into the live
 * index against 1,961 chunks/s without it plus 2.0 s to build it afterwards (9.1 s → 4.6 s).
 * Queries meanwhile scan exactly, which is slower but correct.
 */
const BULK_REBUILD_FROM = 2000;

const isLocal = (embedder: EmbedderPlugin): boolean => (embedder as { readonly local?: boolean }).local === true;

/**
 * Embeds every current chunk that has no vector from `embedder` yet, in batches, in chunk-id
 * order (a keyset walk: each batch starts after the last id, so a chunk that fails to insert is
 * never fetched twice). Chunk text is search_text (title + body), what the text indexes see too.
 * Sensitive sources are sent only to local embedders: their text must not reach a provider.
 */
export async function embedPending(database: Database, embedder: EmbedderPlugin, options: EmbedPendingOptions = {}): Promise<EmbedPendingReport> {
  const started = performance.now();
  const batchSize = Math.max(1, Math.floor(options.batchSize ?? (options.live ? LIVE_BATCH : DEFAULT_BATCH)));
  // Live: each batch (read, embed, insert into the live index) is timed and resized; at start-up, fixed batches.
  const pacer = options.live ? new StatementPacer({ initialRows: batchSize, maxRows: Math.max(batchSize, DEFAULT_BATCH) }) : undefined;
  const includeSensitive = options.includeSensitive ?? isLocal(embedder);
  const sensitiveFilter = includeSensitive ? sql`` : sql`and chunks.source_id in (select id from sources where not sensitive)`;
  const notEmbedded = sql`not exists (select 1 from chunk_embeddings where chunk_embeddings.chunk_id = chunks.id and chunk_embeddings.embedder_id = ${embedder.id})`;
  // Under local_only a marked passage never reaches a non-local embedder, redacted or not (issue 12, finding 5).
  const withholdMarked = !isLocal(embedder) && (options.sensitiveContent ?? 'local_only') === 'local_only';
  const markedFilter = withholdMarked ? sql`and chunks.sensitive is false` : sql``;
  // Lookup-only passages are found by a bm25 lookup alone: no vector is ever asked of them.
  const pendingFilter = sql`chunks.is_current and not chunks.lookup_only ${sensitiveFilter} ${markedFilter} and ${notEmbedded}`;
  const withheld = withholdMarked ? await withheldMarked(database, sql`chunks.is_current and not chunks.lookup_only ${sensitiveFilter} and chunks.sensitive is not false and ${notEmbedded}`) : 0;
  const outcome = { includeSensitive, withheld };
  // Live, only whether any is pending: counting walks every current chunk in one statement (bulk or not is a start-up question).
  const [pending] = options.live
    ? await database.query<{ count: number }>(sql`select count(*)::int as count from (select 1 from chunks where ${pendingFilter} limit 1) as any_pending`)
    : await database.query<{ count: number }>(sql`select count(*)::int as count from chunks where ${pendingFilter}`);
  if (Number(pending?.count ?? 0) === 0) return report(embedder, 0, 0, started, outcome);
  const bulk = !options.live && Number(pending.count) >= BULK_REBUILD_FROM;
  if (bulk) await dropHnswIndex(database, embedder.id);
  let after = '';
  let embedded = 0;
  let batches = 0;
  let dimensions = 0;
  try {
    const embedBatch = async (limit: number): Promise<boolean> => {
      options.signal?.throwIfAborted();
      const rows = await database.query<{ id: string; text: string; sensitive: boolean | null }>(
        sql`select chunks.id, chunks.search_text as text, chunks.sensitive from chunks where ${pendingFilter} and chunks.id > ${after} order by chunks.id limit ${limit}`,
      );
      if (rows.length === 0) return false;
      // Only a non-local embedder under "redact" sees marked rows here; the guard in front of it scans every text again.
      const texts = rows.map((row) => (row.sensitive !== false && !isLocal(embedder) ? redactSensitive(row.text) : row.text));
      const vectors = await embedder.embed(texts, options.signal ? { signal: options.signal } : {});
      dimensions = vectors[0]?.length ?? 0;
      if (vectors.length !== rows.length || dimensions === 0 || vectors.some((vector) => vector.length !== dimensions)) {
        throw new ContextRuntimeError('INTERNAL', `embedder ${embedder.id} returned ${vectors.length} vectors of mixed or zero size for ${rows.length} texts`, {
          details: { embedderId: embedder.id },
        });
      }
      const payload = JSON.stringify(rows.map((row, index) => ({ chunk_id: row.id, embedding: toVectorLiteral(vectors[index]) })));
      await database.query(sql`
        insert into chunk_embeddings (chunk_id, embedder_id, dims, embedding)
        select row_set.chunk_id, ${embedder.id}, ${dimensions}, row_set.embedding::vector
        from jsonb_to_recordset(${payload}::jsonb) as row_set(chunk_id text, embedding text)
        on conflict do nothing`);
      if (!bulk && batches === 0) await ensureHnswIndex(database, embedder.id, dimensions);
      after = rows[rows.length - 1].id;
      embedded += rows.length;
      batches += 1;
      options.onProgress?.(embedded);
      return true;
    };
    for (;;) {
      const more = pacer ? await pacer.run(embedBatch) : await embedBatch(batchSize);
      if (!more) break;
      if (!pacer) await new Promise((resolve) => setImmediate(resolve));
    }
  } finally {
    if (bulk) await ensureHnswIndex(database, embedder.id, dimensions || (await storedDimensions(database, embedder.id)));
  }
  // PGlite runs no autovacuum: without fresh statistics the planner misjudges the HNSW path (12–25 ms for 5,000 rows).
  await database.exec('analyze chunk_embeddings');
  return report(embedder, embedded, batches, started, outcome);
}

async function withheldMarked(database: Database, filter: SQL): Promise<number> {
  const [row] = await database.query<{ count: number }>(sql`select count(*)::int as count from chunks where ${filter}`);
  return Number(row?.count ?? 0);
}

async function storedDimensions(database: Database, embedderId: string): Promise<number> {
  const [row] = await database.query<{ dims: number }>(sql`select dims from chunk_embeddings where embedder_id = ${embedderId} limit 1`);
  return Number(row?.dims ?? 0);
}

function report(embedder: EmbedderPlugin, embedded: number, batches: number, started: number, outcome: { includeSensitive: boolean; withheld: number }): EmbedPendingReport {
  return Object.freeze({
    embedderId: embedder.id,
    embedded,
    batches,
    milliseconds: Math.round(performance.now() - started),
    includedSensitive: outcome.includeSensitive,
    withheldSensitive: outcome.withheld,
    ...(outcome.withheld > 0
      ? { withheldReason: `${outcome.withheld} passages hold personal data or secrets and embedder ${embedder.id} is not local: not embedded (policy.sensitive_content: local_only)` }
      : {}),
  });
}
