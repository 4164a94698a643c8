import { sql } from 'drizzle-orm';
import type { Database } from '../../../db/client';
import { DOTTED_NAME_PATTERN, DottedNameIndex } from '../retrievers/dotted-names';

/**
 * Corpus size the retrievers quote in their (synchronous) capabilities. Refreshed at start and
 * after every ingest, so the latency heuristic tracks the corpus without a query per plan.
 */
export class CorpusStats {
  private chunkCount = 0;
  private sourceIds: ReadonlySet<string> = new Set();
  private dotted: Promise<DottedNameIndex> | undefined;

  constructor(private readonly database: Database) {}

  get currentChunks(): number {
    return this.chunkCount;
  }

  /**
   * True when `requestedIds` names every source that had current chunks at the last refresh: a
   * retriever may then skip the source filter. Another process may have added a source since, so
   * callers still check each row's source (bm25Rows does).
   */
  coversEverySource(requestedIds: ReadonlySet<string>): boolean {
    if (this.sourceIds.size === 0) return false;
    for (const id of this.sourceIds) if (!requestedIds.has(id)) return false;
    return true;
  }

  async refresh(): Promise<number> {
    const rows = await this.database.query<{ source_id: string; count: number }>(sql`select source_id, count(*)::int as count from chunks where is_current and not lookup_only group by source_id`);
    this.chunkCount = rows.reduce((sum, row) => sum + Number(row.count), 0);
    this.sourceIds = new Set(rows.map((row) => row.source_id));
    this.dotted = undefined;
    return this.chunkCount;
  }

  /**
   * The dotted names of the current chunks (dotted-names.ts), read at the first search after a
   * refresh rather than at every ingest: a scan of every chunk's text.
   */
  dottedNames(): Promise<DottedNameIndex> {
    this.dotted ??= this.database
      .query<{ name: string }>(sql`select distinct found[1] as name from chunks, regexp_matches(chunks.search_text, ${`(${DOTTED_NAME_PATTERN})`}, 'g') as found where chunks.is_current`)
      .then((rows) => new DottedNameIndex(rows.map((row) => row.name)))
      .catch(() => {
        // Searches go on without the names; the next search tries again.
        this.dotted = undefined;
        return new DottedNameIndex([]);
      });
    return this.dotted;
  }
}
