import { sql } from 'drizzle-orm';
import { check, index, jsonb, pgTable, primaryKey, real, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * The Knowledge Layer's graph: what the store holds (source versions and chunks, mirrored from
 * `source_versions` and `chunks`) and what was derived from it (summaries, facts, memories).
 *
 * Bi-temporal in the manner of Graphiti (Rasmussen et al., "Zep: a temporal knowledge graph
 * architecture for agent memory", 2025) and SQL:2011 system-versioned tables:
 * - valid time `valid_from` / `valid_to`: when the statement was true in the world (a commit date,
 *   a log timestamp); null = unknown / open-ended.
 * - transaction time `recorded_at` / `expired_at`: when this database started and stopped
 *   believing it. Rows are never deleted, so "what did we know on day X" stays answerable.
 * `status` is the present-time view of the same row (current, superseded, stale, expired) with
 * `status_reason` for EXPLAIN and the Knowledge page.
 *
 * A source version is a node of kind `source` whose id is the version id; chunk nodes reuse the
 * chunk id, so a citation's chunk id is also its node id. No foreign keys, like `chunks`: rows are
 * written in bulk per version by server/adapters/knowledge, and nothing they point at is deleted.
 */
export const knowledgeNodes = pgTable(
  'knowledge_nodes',
  {
    id: text('id').primaryKey(),
    kind: text('kind').notNull(),
    sourceId: text('source_id'),
    versionId: text('version_id'),
    chunkId: text('chunk_id'),
    subject: text('subject'),
    attribute: text('attribute'),
    /** Normalised value (e.g. "256Mi"): equality on it is what "agree" means for contradictions. */
    value: text('value'),
    /** The evidence line, the summary or memory text, or the chunk locator. */
    text: text('text'),
    confidence: real('confidence'),
    validFrom: timestamp('valid_from', { withTimezone: true, mode: 'date' }),
    validTo: timestamp('valid_to', { withTimezone: true, mode: 'date' }),
    recordedAt: timestamp('recorded_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    expiredAt: timestamp('expired_at', { withTimezone: true, mode: 'date' }),
    status: text('status').notNull().default('current'),
    statusReason: text('status_reason'),
    metadata: jsonb('metadata').$type<Record<string, unknown>>().notNull().default({}),
  },
  (table) => [
    check('knowledge_nodes_kind_check', sql`${table.kind} in ('source', 'chunk', 'summary', 'fact', 'memory')`),
    check('knowledge_nodes_status_check', sql`${table.status} in ('current', 'superseded', 'stale', 'expired')`),
    index('knowledge_nodes_source_idx').on(table.sourceId, table.kind),
    index('knowledge_nodes_version_idx').on(table.versionId),
    index('knowledge_nodes_chunk_idx').on(table.chunkId).where(sql`kind in ('fact', 'memory', 'summary')`),
    // Compressed contexts are found by their reuse key, kept as the summary's subject.
    index('knowledge_nodes_summary_subject_idx').on(table.subject).where(sql`kind = 'summary'`),
    // Contradiction detection and "as of" reads look facts and memories up by subject + attribute.
    index('knowledge_nodes_key_idx').on(table.subject, table.attribute).where(sql`kind in ('fact', 'memory')`),
  ],
);

/**
 * Directed edges: contains (version → chunk), derived_from (derived → origin), supersedes
 * (newer → older), contradicts (fact → fact, stored once per pair, lower id first).
 * `expired_at` retires an edge (a contradiction resolved by a new version) without deleting it.
 */
export const knowledgeEdges = pgTable(
  'knowledge_edges',
  {
    fromId: text('from_id').notNull(),
    toId: text('to_id').notNull(),
    kind: text('kind').notNull(),
    recordedAt: timestamp('recorded_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    expiredAt: timestamp('expired_at', { withTimezone: true, mode: 'date' }),
    metadata: jsonb('metadata').$type<Record<string, unknown>>().notNull().default({}),
  },
  (table) => [
    primaryKey({ columns: [table.fromId, table.toId, table.kind] }),
    check('knowledge_edges_kind_check', sql`${table.kind} in ('contains', 'derived_from', 'supersedes', 'contradicts')`),
    // Staleness walks derived_from backwards (from an origin to what was derived from it).
    index('knowledge_edges_to_idx').on(table.toId, table.kind),
  ],
);
