/**
 * What a hit needs of a chunk besides its score (source, version, title, body, locator, token
 * count, sensitivity marking), kept in process by chunk id. None of it changes while the chunk is
 * current (an older row's marking is filled at start-up, before any read): the id is derived from
 * the version id, uri and ordinal, so changed text gets a new id; a source's name is fixed by its
 * id; its kind is only rewritten together with a new version, which retires the old
 * chunks from every current-only read. An entry needs no invalidation: only the LRU bound evicts.
 *
 * Why: a ranked lexical query costs little inside Postgres (pg_textsearch answers top-100 on
 * SciFact in about a millisecond) but shipping 100 bodies of ~1,500 characters out of PGlite's
 * WASM heap, or joining each row to its source, costs as much again (measured at k = 100: ids and
 * scores alone 1.3 ms p50, with the sources join and version column 2.1 ms). Queries return ids and
 * scores; the rest comes from here, and only the ids not yet seen are read.
 */
import { sql } from 'drizzle-orm';
import type { Database } from '../../../db/client';

export interface CachedChunk {
  readonly sourceId: string;
  readonly sourceName: string;
  readonly sourceKind: string;
  readonly versionId: string;
  readonly title: string;
  readonly body: string;
  readonly locator: string | null;
  readonly tokens: number;
  readonly sensitive: boolean | null;
}

/** ~64 MB of UTF-16 text: SciFact's 5,183 abstracts take about 16 MB. */
const DEFAULT_MAX_CHARS = 32_000_000;
/** Rows per warm-up statement: a few MB of text each, so no single read holds the database long. */
const WARM_PAGE_ROWS = 2000;

interface ChunkRow extends Record<string, unknown> {
  readonly id: string;
  readonly source_id: string;
  readonly source_name: string;
  readonly source_kind: string;
  readonly version_id: string;
  readonly title: string;
  readonly body: string;
  readonly locator: string | null;
  readonly tokens: number | string;
  readonly sensitive: boolean | null;
}

const cachedChunkOf = (row: ChunkRow): CachedChunk =>
  Object.freeze({
    sourceId: row.source_id,
    sourceName: row.source_name,
    sourceKind: row.source_kind,
    versionId: row.version_id,
    title: row.title,
    body: row.body,
    locator: row.locator,
    tokens: Number(row.tokens),
    sensitive: row.sensitive,
  });

const charsOf = (chunk: CachedChunk): number => chunk.title.length + chunk.body.length;

export class ChunkRowCache {
  private readonly entries = new Map<string, CachedChunk>();
  private chars = 0;

  constructor(
    private readonly database: Database,
    private readonly maxChars = DEFAULT_MAX_CHARS,
  ) {}

  get size(): number {
    return this.entries.size;
  }

  /**
   * Fills the cache with current chunks up to its bound, a page at a time, so the first queries
   * after a start do not each pay a second round trip for rows they have not seen (SciFact: the
   * first 809 claims at k = 100 read all 5,183 chunks that way). Returns the rows cached.
   */
  async warm(pageRows = WARM_PAGE_ROWS): Promise<number> {
    let after = '';
    let cached = 0;
    while (this.chars < this.maxChars) {
      const rows = await this.database.query<ChunkRow>(sql`
        select chunks.id, chunks.source_id, sources.name as source_name, sources.kind as source_kind, chunks.version_id,
               chunks.title, chunks.body, chunks.locator, chunks.tokens, chunks.sensitive
        from chunks join sources on sources.id = chunks.source_id
        where chunks.is_current and chunks.id > ${after}
        order by chunks.id limit ${sql.raw(String(pageRows))}`);
      for (const row of rows) {
        if (this.chars >= this.maxChars) break;
        if (!this.entries.has(row.id)) this.remember(row.id, cachedChunkOf(row));
        cached += 1;
      }
      if (rows.length < pageRows) break;
      after = rows[rows.length - 1].id;
    }
    return cached;
  }

  /** The chunks of `ids` (every id that exists), reading the missing ones in one query. */
  async chunks(ids: readonly string[]): Promise<ReadonlyMap<string, CachedChunk>> {
    const found = new Map<string, CachedChunk>();
    const missing: string[] = [];
    for (const id of ids) {
      const entry = this.entries.get(id);
      if (!entry) {
        missing.push(id);
        continue;
      }
      // Map order is insertion order: re-inserting marks the entry most recently used.
      this.entries.delete(id);
      this.entries.set(id, entry);
      found.set(id, entry);
    }
    if (missing.length === 0) return found;
    const rows = await this.database.query<ChunkRow>(sql`
      select chunks.id, chunks.source_id, sources.name as source_name, sources.kind as source_kind, chunks.version_id,
             chunks.title, chunks.body, chunks.locator, chunks.tokens, chunks.sensitive
      from chunks join sources on sources.id = chunks.source_id
      where chunks.id = any (array(select jsonb_array_elements_text(${JSON.stringify(missing)}::jsonb)))`);
    for (const row of rows) {
      const entry = cachedChunkOf(row);
      found.set(row.id, entry);
      this.remember(row.id, entry);
    }
    return found;
  }

  private remember(id: string, entry: CachedChunk): void {
    this.entries.set(id, entry);
    this.chars += charsOf(entry);
    for (const [oldest, evicted] of this.entries) {
      if (this.chars <= this.maxChars) break;
      this.entries.delete(oldest);
      this.chars -= charsOf(evicted);
    }
  }
}

/** One cache per database handle, shared by the retrievers that read through it. */
const caches = new WeakMap<Database, ChunkRowCache>();

export function chunkRowCacheOf(database: Database): ChunkRowCache {
  let cache = caches.get(database);
  if (!cache) {
    cache = new ChunkRowCache(database);
    caches.set(database, cache);
  }
  return cache;
}
