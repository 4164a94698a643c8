import { sql } from 'drizzle-orm';
import type { Database } from '../../../db/client';

/**
 * Corpus size the retrievers quote in their (synchronous) capabilities. Refreshed at start and
 * after every ingest, so the latency heuristic tracks the corpus without a query per plan.
 */
export class CorpusStats {
  private chunkCount = 0;

  constructor(private readonly database: Database) {}

  get currentChunks(): number {
    return this.chunkCount;
  }

  async refresh(): Promise<number> {
    const [row] = await this.database.query<{ count: number }>(sql`select count(*)::int as count from chunks where is_current`);
    this.chunkCount = Number(row?.count ?? 0);
    return this.chunkCount;
  }
}
