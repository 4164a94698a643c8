/**
 * Compressed contexts in the Knowledge Layer (contracts/compression.ts CompressedContextStore): each
 * is a summary node derived_from the chunks it compresses, its subject the reuse key and its
 * metadata the packed text, the cuts and the lineage. The refresh trigger is the graph's own
 * staleness: retiring a source version marks everything derived from its chunks stale (through
 * derived sources too), and `find` serves current nodes only.
 */
import { sql } from 'drizzle-orm';
import type { Database } from '../../../db/client';
import type { CompressedContextStore, StoredCompression } from '../../runtime/contracts/compression';
import type { KnowledgeGraph } from './knowledge-graph';

const SUBJECT_PREFIX = 'compressed context ';

export class PgCompressedContextStore implements CompressedContextStore {
  constructor(
    private readonly database: Database,
    private readonly graph: KnowledgeGraph,
  ) {}

  async find(key: string): Promise<{ readonly nodeId: string; readonly stored: StoredCompression } | undefined> {
    const [row] = await this.database.query<{ id: string; metadata: { compression?: StoredCompression } }>(sql`
      select id, metadata from knowledge_nodes
      where kind = 'summary' and subject = ${SUBJECT_PREFIX + key} and status = 'current'
      order by recorded_at desc limit 1`);
    const stored = row?.metadata.compression;
    return row && stored ? { nodeId: row.id, stored } : undefined;
  }

  record(key: string, goal: string, stored: StoredCompression): Promise<string> {
    return this.graph.recordSummary({
      text: stored.items.map((item) => item.text).join('\n'),
      derivedFrom: stored.lineage.derivedFrom.map((entry) => entry.chunkId),
      subject: SUBJECT_PREFIX + key,
      metadata: { goal: goal.slice(0, 500), method: stored.lineage.method, compression: stored },
    });
  }
}
