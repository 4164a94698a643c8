import { sql, type SQL } from 'drizzle-orm';
import { sourceIdOf } from '../db/ids';
import type { Hit, SourceKind } from '../../runtime/types';
import type { TimeWindow } from '../../runtime/contracts/retriever';

/** Columns every retriever selects (aliases as below), joined with the chunk's source. */
export interface ChunkHitRow extends Record<string, unknown> {
  readonly id: string;
  readonly source_name: string;
  readonly source_kind: string;
  readonly version_id: string;
  readonly title: string;
  readonly body: string;
  readonly locator: string | null;
  readonly tokens: number | string;
  /** Marked at ingest; null only on a row written before the marking and not yet scanned. */
  readonly sensitive: boolean | null;
  readonly score: number | string;
}

/** Upper bound on k: a planner asking for more is a bug, and the query cost grows with it. */
export const MAX_K = 1000;

/**
 * The passages every general search reads: current, and not kept for lookups only (the file diffs a
 * commit's chunk cut, chunks.lookup_only: searched with the rest they crowded out the commits).
 */
export const SEARCHED_CHUNKS = sql`chunks.is_current and not chunks.lookup_only`;

/** Source ids of the requested source names, as one jsonb parameter. */
const sourceIdsOf = (sourceNames: readonly string[]): SQL => sql`chunks.source_id in (select jsonb_array_elements_text(${JSON.stringify(sourceNames.map(sourceIdOf))}::jsonb))`;

/**
 * `source_id in (…)` for the requested source names. Source ids are derived from names
 * (sourceIdOf), so the filter needs no join and stays a plain condition the index scan can
 * apply; one jsonb parameter keeps both drivers' parameter handling identical.
 */
export const currentChunksOf = (sourceNames: readonly string[]): SQL => sql`${SEARCHED_CHUNKS} and ${sourceIdsOf(sourceNames)}`;

/** The lookup-only passages of the requested sources (a setting lookup's search; see SEARCHED_CHUNKS). */
export const lookupChunksOf = (sourceNames: readonly string[]): SQL => sql`chunks.is_current and chunks.lookup_only and ${sourceIdsOf(sourceNames)}`;

/** A chunk's stamp in minutes, "yyyy-mm-ddThh:mm": logs write "2026-03-09 08:14:02,139", events and metrics ISO. */
const stampMinute = (field: 'firstTimestamp' | 'lastTimestamp'): SQL => sql`replace(left(chunks.metadata->>${field}, 16), ' ', 'T')`;

/**
 * Chunks whose stamped stretch (first to last timestamp, kept at ingest by the log, events and
 * metrics parsers) overlaps one of the windows; an undated window compares month-day onwards.
 * Unstamped chunks (documents, commits) never match.
 */
export function stampedWithin(windows: readonly TimeWindow[]): SQL {
  const overlaps = windows.map((window) => {
    const [first, last] = window.anyYear ? [sql`substr(${stampMinute('firstTimestamp')}, 6)`, sql`substr(${stampMinute('lastTimestamp')}, 6)`] : [stampMinute('firstTimestamp'), stampMinute('lastTimestamp')];
    return sql`(${first} <= ${window.to} and ${last} >= ${window.from})`;
  });
  return sql`(${sql.join(overlaps, sql` or `)})`;
}

export function toHits(rows: readonly ChunkHitRow[], method: string): readonly Hit[] {
  return Object.freeze(
    rows.map((row, index) =>
      Object.freeze({
        chunkId: row.id,
        sourceName: row.source_name,
        sourceKind: row.source_kind as SourceKind,
        sourceVersionId: row.version_id,
        title: row.title,
        text: row.body,
        score: Number(row.score),
        rank: index + 1,
        method,
        ...(row.locator !== null ? { locator: row.locator } : {}),
        tokens: Number(row.tokens),
        // An unscanned row (null) is not known to be clean: it counts as sensitive.
        sensitive: row.sensitive !== false,
      }),
    ),
  );
}

export const clampK = (k: number): number => (Number.isFinite(k) ? Math.max(0, Math.min(Math.floor(k), MAX_K)) : 0);
