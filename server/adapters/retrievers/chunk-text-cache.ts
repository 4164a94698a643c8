/**
 * Title, body, locator and token count of chunks by id, kept in process. A chunk id names one
 * immutable row (it is derived from the version id, uri and ordinal; a changed source gets new
 * ids), so an entry can never go stale and needs no invalidation: only the LRU bound evicts.
 *
 * Why: a ranked lexical query costs little inside Postgres (pg_textsearch answers top-100 on
 * SciFact in well under a millisecond) but shipping 100 bodies of ~1,500 characters out of
 * PGlite's WASM heap on every query costs more than the ranking itself. Queries return ids and
 * scores; bodies come from here, and only the ids not yet seen are read.
 */
import { sql } from 'drizzle-orm';
import type { Database } from '../../../db/client';

export interface ChunkText {
  readonly title: string;
  readonly body: string;
  readonly locator: string | null;
  readonly tokens: number;
}

/** ~64 MB of UTF-16 text: SciFact's 5,183 abstracts take about 16 MB. */
const DEFAULT_MAX_CHARS = 32_000_000;

export class ChunkTextCache {
  private readonly entries = new Map<string, ChunkText>();
  private chars = 0;

  constructor(
    private readonly database: Database,
    private readonly maxChars = DEFAULT_MAX_CHARS,
  ) {}

  get size(): number {
    return this.entries.size;
  }

  /** The texts of `ids` (every id that exists), reading the missing ones in one query. */
  async texts(ids: readonly string[]): Promise<ReadonlyMap<string, ChunkText>> {
    const found = new Map<string, ChunkText>();
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
    const rows = await this.database.query<{ id: string; title: string; body: string; locator: string | null; tokens: number | string }>(sql`
      select id, title, body, locator, tokens from chunks where id = any (array(select jsonb_array_elements_text(${JSON.stringify(missing)}::jsonb)))`);
    for (const row of rows) {
      const entry = Object.freeze({ title: row.title, body: row.body, locator: row.locator, tokens: Number(row.tokens) });
      found.set(row.id, entry);
      this.remember(row.id, entry);
    }
    return found;
  }

  private remember(id: string, entry: ChunkText): void {
    this.entries.set(id, entry);
    this.chars += entry.title.length + entry.body.length;
    for (const [oldest, evicted] of this.entries) {
      if (this.chars <= this.maxChars) break;
      this.entries.delete(oldest);
      this.chars -= evicted.title.length + evicted.body.length;
    }
  }
}

/** One cache per database handle, shared by the retrievers that read through it. */
const caches = new WeakMap<Database, ChunkTextCache>();

export function chunkTextCacheOf(database: Database): ChunkTextCache {
  let cache = caches.get(database);
  if (!cache) {
    cache = new ChunkTextCache(database);
    caches.set(database, cache);
  }
  return cache;
}
