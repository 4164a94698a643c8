import { sql } from 'drizzle-orm';
import type { DrizzleTransaction } from '../../../db/client';
import type { IngestChunk } from '../../runtime/contracts/store';
import { sensitiveKinds } from '../../runtime/policy/sensitive-content-detector';
import { chunkIdOf } from './ids';

/**
 * Rows per INSERT … SELECT FROM jsonb_to_recordset($1): one JSON parameter per batch instead of
 * drizzle's VALUES list with 12 parameters a row. Measured on PGlite 0.5.14 with 5,000 chunks of
 * ~950 characters and both text indexes present: 890 chunks/s through drizzle's VALUES builder,
 * 1,700–1,800 chunks/s this way (3,100–3,400 chunks/s for ~475-character chunks). What remains is
 * tokenisation: the english parser, ~0.3 ms per ~950-character chunk in PGlite's WASM build, runs
 * once per row for the lexical index in use — the bm25 index where pg_textsearch is installed, else
 * the stored search_vector (`inlineSearchVector`), which is then filled later by the backfill.
 */
const INSERT_BATCH_ROWS = 500;

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** PostgreSQL text and jsonb reject U+0000 and unpaired surrogates, which parsed binary-ish files sometimes carry. */
const storable = (text: string): string => text.replaceAll('\u0000', '').replace(LONE_SURROGATE, '\uFFFD');

export interface InsertOptions {
  /** Compute search_vector in the INSERT (no bm25 index: fulltext is the lexical method). */
  readonly inlineSearchVector: boolean;
  /** is_current of the new rows; a batched load stages them invisible (false) and flips them after (batched-version-load.ts). */
  readonly current?: boolean;
}

export async function insertChunks(tx: DrizzleTransaction, sourceId: string, versionId: string, ingestChunks: readonly IngestChunk[], options: InsertOptions): Promise<void> {
  // search_text is built here, not sent: the JSON payload carries each text once (title + body).
  const searchVector = options.inlineSearchVector ? sql`to_tsvector('english'::regconfig, title || E'\n' || body)` : sql`null::tsvector`;
  for (let start = 0; start < ingestChunks.length; start += INSERT_BATCH_ROWS) {
    const rows = ingestChunks.slice(start, start + INSERT_BATCH_ROWS).map((chunk) => ({
      id: chunkIdOf(versionId, chunk.uri, chunk.ordinal),
      uri: chunk.uri,
      ordinal: chunk.ordinal,
      title: chunk.title,
      body: chunk.text,
      locator: chunk.locator ?? null,
      tokens: chunk.tokens,
      metadata: chunk.metadata ?? {},
      lookup_only: chunk.lookupOnly === true,
      // Marked once here, on every ingest path (files, uploads, git, the demo): what a passage holds
      // decides later, without re-reading it, whether it may reach a non-local model (issue 12, finding 5).
      ...markingOf(chunk),
    }));
    const payload = JSON.stringify(rows, (_key, value: unknown) => (typeof value === 'string' ? storable(value) : value));
    await tx.execute(sql`
      insert into chunks (id, source_id, version_id, is_current, uri, ordinal, title, body, search_text, search_vector, locator, tokens, metadata, sensitive, sensitive_kinds, lookup_only)
      select id, ${sourceId}, ${versionId}, ${options.current ?? true}, uri, ordinal, title, body, title || E'\n' || body, ${searchVector}, locator, tokens, coalesce(metadata, '{}'::jsonb), sensitive, sensitive_kinds, lookup_only
      from jsonb_to_recordset(${payload}::jsonb)
        as row_set(id text, uri text, ordinal int, title text, body text, locator text, tokens int, metadata jsonb, sensitive boolean, sensitive_kinds text[], lookup_only boolean)`);
  }
}

/** The chunk's sensitivity as stored: over title and body together, as search_text and every prompt see them. */
export function markingOf(chunk: { readonly title: string; readonly text: string }): { sensitive: boolean; sensitive_kinds: string[] } {
  const kinds = sensitiveKinds(`${chunk.title}\n${chunk.text}`);
  return { sensitive: kinds.length > 0, sensitive_kinds: [...kinds] };
}
