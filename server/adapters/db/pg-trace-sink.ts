import { asc, eq, sql } from 'drizzle-orm';
import type { Database } from '../../../db/client';
import { spans } from '../../../db/schema';
import { jsonRowsInsert } from './json-rows-insert';
import { TRACE_SINK_CONTRACT, type Span, type TraceSinkPlugin } from '../../runtime/contracts/trace-sink';

/** Rows per INSERT: one JSON parameter, kept to a few MB. */
const INSERT_BATCH_ROWS = 500;

/** Spans in Postgres, where the cost model's learning loop reads them back. */
export class PgTraceSink implements TraceSinkPlugin {
  readonly contract = TRACE_SINK_CONTRACT;

  constructor(private readonly database: Database) {}

  /** Idempotent per span id: a retried flush does not duplicate spans. */
  async write(spanList: readonly Span[]): Promise<void> {
    for (let start = 0; start < spanList.length; start += INSERT_BATCH_ROWS) {
      const rows = spanList.slice(start, start + INSERT_BATCH_ROWS).map((span) => ({
        id: span.id,
        runId: span.runId,
        parentId: span.parentId ?? null,
        name: span.name,
        category: span.category,
        startedAt: new Date(span.startedAt),
        endedAt: new Date(span.endedAt),
        durationMs: span.durationMs,
        tokens: Math.round(span.tokens),
        costUsd: span.costUsd,
        status: span.status,
        attributes: { ...span.attributes },
      }));
      await this.database.query(jsonRowsInsert(spans, rows, { tail: sql`on conflict do nothing` }));
    }
  }

  async spansOf(runId: string): Promise<readonly Span[]> {
    const rows = await this.database.db.select().from(spans).where(eq(spans.runId, runId)).orderBy(asc(spans.startedAt), asc(spans.id));
    return Object.freeze(
      rows.map((row) =>
        Object.freeze({
          id: row.id,
          runId: row.runId,
          ...(row.parentId !== null ? { parentId: row.parentId } : {}),
          name: row.name,
          category: row.category,
          startedAt: row.startedAt.toISOString(),
          endedAt: row.endedAt.toISOString(),
          durationMs: row.durationMs,
          tokens: row.tokens,
          costUsd: row.costUsd,
          status: row.status as Span['status'],
          attributes: row.attributes,
        }),
      ),
    );
  }
}
