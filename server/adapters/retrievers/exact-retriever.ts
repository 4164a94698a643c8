import { type SQL, sql } from 'drizzle-orm';
import type { Database } from '../../../db/client';
import { RETRIEVER_CONTRACT, type RetrievalQuery, type RetrieverCapabilities, type RetrieverPlugin } from '../../runtime/contracts/retriever';
import type { Hit } from '../../runtime/types';
import type { CorpusStats } from '../db/corpus-stats';
import { scanIdentifiers } from '../graph/identifier-scan';
import { type ChunkHitRow, clampK, currentChunksOf, toHits } from './chunk-hits';

/**
 * An identifier index finds exactly the chunks that carry the id and nothing else, so its top-k
 * holds the evidence almost surely when the goal is a lookup (exact_id) and says little when the
 * goal is a question about concepts (it then usually finds nothing, which costs ~1 ms).
 */
const RECALL_PRIOR = Object.freeze({ exact_id: 0.95, incident: 0.6, high_risk: 0.3, sensitive: 0.3, conceptual: 0.05, multi_hop: 0.1 });

/** Bounds the work per query: a pasted log line can hold hundreds of ids. */
const MAX_QUERY_IDENTIFIERS = 32;
/** An abbreviated commit ("git log --oneline" prints 7) is looked up as a prefix of the stored SHAs. */
const ABBREVIATED_SHA = /^[0-9a-f]{7,39}$/;

/** The smallest string above every string starting with `prefix` (hex prefixes only, so no overflow past 'g'). */
const prefixUpperBound = (prefix: string): string => prefix.slice(0, -1) + String.fromCharCode(prefix.charCodeAt(prefix.length - 1) + 1);

/**
 * Exact lookup through the `identifiers` table built at ingest (graph-builder.ts indexIdentifiers):
 * chunks ranked by how many of the query's identifiers they carry, then by recency (newest
 * version, then the later line of a log). Plain SQL on a btree, so it is available everywhere.
 */
export class ExactRetriever implements RetrieverPlugin {
  readonly contract = RETRIEVER_CONTRACT;
  readonly method = 'exact';

  constructor(
    private readonly database: Database,
    private readonly corpus: CorpusStats,
  ) {}

  capabilities(): RetrieverCapabilities {
    return Object.freeze({
      method: this.method,
      available: true,
      requires: Object.freeze([]),
      // Index probes plus a join; grows with the number of chunks sharing an id, not with the corpus.
      latencyMs: 1 + this.corpus.currentChunks / 100_000,
      recallPrior: RECALL_PRIOR,
    });
  }

  async search(query: RetrievalQuery): Promise<readonly Hit[]> {
    const k = clampK(query.k);
    const wanted = queryIdentifiers(query);
    if (k === 0 || wanted.length === 0 || query.sources.length === 0) return [];
    query.signal?.throwIfAborted();
    const matches: SQL[] = [
      sql`select identifiers.chunk_id, wanted.value as matched
          from jsonb_array_elements_text(${JSON.stringify(wanted)}::jsonb) as wanted(value)
          join identifiers on identifiers.value = wanted.value`,
      // text_pattern_ops operators, so the btree serves the range with the bound as a parameter.
      ...wanted
        .filter((value) => ABBREVIATED_SHA.test(value))
        .map((prefix) => sql`select chunk_id, ${prefix}::text as matched from identifiers where value ~>=~ ${prefix} and value ~<~ ${prefixUpperBound(prefix)} and kind = 'commit_sha'`),
    ];
    const rows = await this.database.query<ChunkHitRow>(sql`
      select chunks.id, sources.name as source_name, sources.kind as source_kind, chunks.version_id,
             chunks.title, chunks.body, chunks.locator, chunks.tokens, chunks.sensitive, count(distinct matches.matched)::float8 as score
      from (${sql.join(matches, sql` union all `)}) as matches
      join chunks on chunks.id = matches.chunk_id
      join sources on sources.id = chunks.source_id
      where ${currentChunksOf(query.sources)}
      group by chunks.id, sources.name, sources.kind
      order by score desc, chunks.created_at desc, chunks.ordinal desc, chunks.id asc
      limit ${sql.raw(String(k))}`);
    query.signal?.throwIfAborted();
    return toHits(rows, this.method);
  }
}

/** Stored identifiers are single tokens of at most this many characters (identifier-extractor.ts). */
const MAX_IDENTIFIER_CHARS = 100;
const UNSTORABLE = /[\u0000\uD800-\uDFFF]/;

/**
 * The planner's identifiers plus any the text holds that it did not pass, lower-cased like the
 * index. A value that was never stored (longer than a token, or holding a NUL or a surrogate:
 * PostgreSQL text rejects NUL and lone surrogates) is dropped here rather than failing the query.
 */
export function queryIdentifiers(query: RetrievalQuery): readonly string[] {
  const values = new Set<string>();
  for (const raw of query.identifiers ?? []) {
    const value = raw.trim().toLowerCase();
    if (value && value.length <= MAX_IDENTIFIER_CHARS && !UNSTORABLE.test(value)) values.add(value);
  }
  for (const identifier of scanIdentifiers(query.text, MAX_QUERY_IDENTIFIERS)) values.add(identifier.value);
  return [...values].slice(0, MAX_QUERY_IDENTIFIERS);
}
