import { sql, type SQL } from 'drizzle-orm';
import type { Database } from '../../../db/client';
import { RETRIEVER_CONTRACT, type RetrievalQuery, type RetrieverCapabilities, type RetrieverPlugin, type TimeWindow } from '../../runtime/contracts/retriever';
import type { Hit } from '../../runtime/types';
import type { CorpusStats } from '../db/corpus-stats';
import { sourceIdOf } from '../db/ids';
import { BM25_INDEX_NAME } from '../db/store-capabilities';
import { type ChunkHitRow, clampK, currentChunksOf, lookupChunksOf, SEARCHED_CHUNKS, stampedWithin, toHits } from './chunk-hits';
import { type CachedChunk, chunkRowCacheOf } from './chunk-row-cache';
import type { DottedNameMatch } from './dotted-names';
import { extractTerms, toBm25Text } from './query-terms';

export interface RetrieverAvailability {
  readonly available: boolean;
  readonly reason?: string;
}

/**
 * Priors for "the top-k holds the evidence", per intent class, until calibration replaces them.
 * BM25 is strongest where the goal names exact tokens (error codes, pod names, request ids:
 * exact_id, incident) and weaker on paraphrase (conceptual) and on chains of facts (multi_hop),
 * the pattern BEIR reports for BM25 against dense retrievers (Thakur et al., 2021).
 */
export const BM25_RECALL_PRIOR = Object.freeze({ exact_id: 0.9, incident: 0.8, high_risk: 0.7, sensitive: 0.65, conceptual: 0.6, multi_hop: 0.45 });

/**
 * Milliseconds per query: a fixed part plus a per-chunk part. Measured through the retriever on
 * PGlite 0.5 (2 cores, bench:retrieval, warm): 0.9–1.0 ms at k = 20 and 1.3–1.5 ms at k = 100 on
 * 994, 1,890 and 5,183 chunks alike; about 2 ms while the chunk cache is still filling. Block-Max
 * WAND keeps growth far below linear, so the per-chunk part is a cautious allowance for corpora
 * larger than any measured here.
 */
const latencyMsFor = (chunkCount: number): number => 1 + chunkCount / 5000;

/** BM25 over pg_textsearch's bm25 index: `search_text <@> to_bm25query(…)` returns −score, ascending is best. */
export class Bm25Retriever implements RetrieverPlugin {
  readonly contract = RETRIEVER_CONTRACT;
  readonly method = 'bm25';

  constructor(
    private readonly database: Database,
    private readonly corpus: CorpusStats,
    private readonly availability: RetrieverAvailability,
  ) {}

  capabilities(): RetrieverCapabilities {
    return Object.freeze({
      method: this.method,
      available: this.availability.available,
      ...(this.availability.available ? {} : { unavailableReason: this.availability.reason ?? 'extension pg_textsearch is not installed on this server' }),
      requires: Object.freeze(['pg_textsearch']),
      latencyMs: latencyMsFor(this.corpus.currentChunks),
      recallPrior: BM25_RECALL_PRIOR,
      timeWindows: true,
      lookupOnly: true,
      // One BM25 index over every source's chunks: a term's IDF is the corpus's, whichever source is searched.
      sharedScoreScale: true,
    });
  }

  async search(query: RetrievalQuery): Promise<readonly Hit[]> {
    if (!this.availability.available) return [];
    const k = clampK(query.k);
    const terms = await this.termsOf(query.text, query.identifiers);
    if (k === 0 || terms.length === 0 || query.sources.length === 0) return [];
    const everySource = this.corpus.coversEverySource(new Set(query.sources.map(sourceIdOf)));
    query.signal?.throwIfAborted();
    const within = query.within?.length ? query.within : undefined;
    const rows = await bm25Rows(this.database, toBm25Text(terms), query.sources, k, within ? { within } : { everySource });
    // The query itself cannot be cancelled on PGlite; what it found after the abort is dropped.
    query.signal?.throwIfAborted();
    return toHits(rows, this.method);
  }

  /**
   * The query's terms, with the corpus's dotted names whose tail it names (dotted-names.ts). Without the
   * index nothing is searched, so the corpus is not scanned for its names.
   */
  private async termsOf(text: string, identifiers: readonly string[] = [], match?: DottedNameMatch): Promise<readonly string[]> {
    const names = this.availability.available ? (await this.corpus.dottedNames()).namesFor(text, identifiers, match) : [];
    return extractTerms(text, names.length > 0 ? [...identifiers, ...names] : identifiers);
  }

  /**
   * Per-source top-k as one statement: a UNION ALL of the per-source ranked scans `search` runs one
   * by one. Inside Postgres the work is the same; what goes is a statement per source, ~1 ms of the
   * engine's one thread each (bench:loc: a run's 10 BM25 statements become its 3 retrieve nodes').
   */
  async searchEach(query: RetrievalQuery): Promise<ReadonlyMap<string, readonly Hit[]>> {
    const k = clampK(query.k);
    const terms = await this.termsOf(query.text, query.identifiers);
    if (!this.availability.available || k === 0 || terms.length === 0) return new Map(query.sources.map((source) => [source, []]));
    query.signal?.throwIfAborted();
    const rows = await bm25RowsEach(this.database, toBm25Text(terms), query.sources, k);
    query.signal?.throwIfAborted();
    return new Map([...rows].map(([source, sourceRows]) => [source, toHits(sourceRows, this.method)]));
  }

  /**
   * The lookup-only passages' ranked scan (chunks.lookup_only). They are in the same bm25 index as
   * every other passage: kept out of it (an empty search text, their own vectors) the index's length
   * statistics moved and with them the ranking of every other search (bench/answers/RESULTS.md, session 59).
   */
  async searchLookupOnly(query: RetrievalQuery): Promise<readonly Hit[]> {
    const k = clampK(query.k);
    const terms = await this.termsOf(query.text, query.identifiers, { lastSegment: true });
    if (!this.availability.available || k === 0 || terms.length === 0 || query.sources.length === 0) return [];
    query.signal?.throwIfAborted();
    const [ranked = []] = await rankedBranches(this.database, [{ text: toBm25Text(terms), filter: lookupChunksOf(query.sources) }], k);
    const rows = hitRowsOf(ranked, await chunkRowCacheOf(this.database).chunks(ranked.map((row) => row.id)));
    query.signal?.throwIfAborted();
    return toHits(rows, this.method);
  }

  /** The texts' ranked scans over the same sources as one UNION ALL statement (the quoted-title hop: up to 4 titles, ~3 ms of the engine each as statements of their own). */
  async searchMany(texts: readonly string[], query: RetrievalQuery): Promise<readonly (readonly Hit[])[]> {
    const k = clampK(query.k);
    const bm25Texts = (await Promise.all(texts.map((text) => this.termsOf(text, query.identifiers)))).map(toBm25Text);
    const searched = bm25Texts.flatMap((text, index) => (text === '' ? [] : [{ index, text }]));
    if (!this.availability.available || k === 0 || query.sources.length === 0 || searched.length === 0) return texts.map(() => []);
    query.signal?.throwIfAborted();
    const cache = chunkRowCacheOf(this.database);
    const rankedFor = async (filter: SQL) => {
      const ranked = await rankedBranches(this.database, searched.map(({ text }) => ({ text, filter })), k);
      return { ranked, chunks: await cache.chunks(ranked.flat().map((row) => row.id)) };
    };
    // As in bm25Rows: over every source the unfiltered scans plan in about half the time; a source
    // added since the last corpus refresh showing up sends the texts through the filtered scans.
    const wanted = new Set(query.sources.map(sourceIdOf));
    let found = this.corpus.coversEverySource(wanted) ? await rankedFor(SEARCHED_CHUNKS) : undefined;
    const foreign = (chunk: CachedChunk | undefined) => chunk !== undefined && !wanted.has(chunk.sourceId);
    if (!found || found.ranked.flat().some((row) => foreign(found!.chunks.get(row.id)))) found = await rankedFor(currentChunksOf(query.sources));
    const { ranked, chunks } = found;
    query.signal?.throwIfAborted();
    const byText = new Map(searched.map(({ index }, branch) => [index, toHits(hitRowsOf(ranked[branch], chunks), this.method)]));
    return texts.map((_, index) => byText.get(index) ?? []);
  }
}

interface RankedRow {
  readonly id: string;
  readonly raw: number;
}

/**
 * Ranked scans run together as one statement, one list per branch in branch order: each branch is
 * a filtered ranked scan as bm25Rows runs it (ids and raw scores, best first, matches only).
 */
async function rankedBranches(database: Database, branches: readonly { readonly text: string; readonly filter: SQL }[], k: number): Promise<RankedRow[][]> {
  if (branches.length === 0) return [];
  const statements = branches.map(({ text, filter }, index) => {
    const bm25Query = sql`to_bm25query(${text}, ${BM25_INDEX_NAME})`;
    return sql`(select chunks.id, (chunks.search_text <@> ${bm25Query})::float8 as raw, ${sql.raw(String(index))} as branch
      from chunks where ${filter}
      order by chunks.search_text <@> ${bm25Query} asc
      limit ${sql.raw(String(k))})`;
  });
  const rows = await database.query<{ id: string; raw: number | string; branch: number | string }>(sql.join(statements, sql` union all `));
  return branches.map((_, index) =>
    rows.filter((row) => Number(row.branch) === index).map((row) => ({ id: row.id, raw: Number(row.raw) })).filter((row) => row.raw < 0).sort(byScoreThenId),
  );
}

/** bm25Rows for each source on its own, in one statement: each branch is the filtered ranked scan bm25Rows runs for one source. */
export async function bm25RowsEach(database: Database, text: string, sources: readonly string[], k: number): Promise<ReadonlyMap<string, ChunkHitRow[]>> {
  const ranked = await rankedBranches(database, sources.map((source) => ({ text, filter: currentChunksOf([source]) })), k);
  const chunks = await chunkRowCacheOf(database).chunks(ranked.flat().map((row) => row.id));
  return new Map(sources.map((source, index) => [source, hitRowsOf(ranked[index], chunks)]));
}

/**
 * The top-k current chunks of `sources` for a pg_textsearch query text, best first (score = −raw;
 * equal scores by chunk id, so a ranking repeats exactly).
 * The WHERE sits inside the ordered index scan: pg_textsearch 1.5 keeps scanning until LIMIT rows
 * pass the filter (checked with 3,000 higher-scoring rows of another source ahead of 3 wanted
 * ones). Non-matching rows only appear on a sequential-scan plan, with score 0, after every
 * match, and `raw < 0` drops them. Ordering by the operator, not its alias, matters: by the alias
 * pg_textsearch re-scores every row (SciFact: p50 11.9 → 3.1 ms at k=10, 45 → 4.3 ms at k=100,
 * same ranking). The query text is bound twice, as two parameters (drizzle's template does so):
 * one parameter in both places, or a PREPAREd statement, took 36 ms p50 at k = 100 against 1.1 ms.
 */
export async function bm25Rows(database: Database, text: string, sources: readonly string[], k: number, options: { readonly everySource?: boolean; readonly within?: readonly TimeWindow[] } = {}): Promise<ChunkHitRow[]> {
  const bm25Query = sql`to_bm25query(${text}, ${BM25_INDEX_NAME})`;
  // Ids and scores only: the rest of each row comes from the chunk cache (chunk-row-cache.ts).
  const rankedOf = async (filter: SQL) => {
    const rows = await database.query<{ id: string; raw: number | string }>(sql`
      select chunks.id, (chunks.search_text <@> ${bm25Query})::float8 as raw
      from chunks
      where ${filter}
      order by chunks.search_text <@> ${bm25Query} asc
      limit ${sql.raw(String(k))}`);
    return rows.map((row) => ({ id: row.id, raw: Number(row.raw) })).filter((row) => row.raw < 0).sort(byScoreThenId);
  };
  const cache = chunkRowCacheOf(database);
  // Asking for every source is the common case; without the source filter the statement plans in
  // about half the time (SciFact k = 20: 0.87 vs 1.52 ms p50, measured). A source another process
  // added since the last corpus refresh would slip in: then the filtered statement answers instead.
  if (options.everySource) {
    const ranked = await rankedOf(SEARCHED_CHUNKS);
    const chunks = await cache.chunks(ranked.map((row) => row.id));
    const wanted = new Set(sources.map(sourceIdOf));
    const foreign = ranked.some((row) => { const sourceId = chunks.get(row.id)?.sourceId; return sourceId !== undefined && !wanted.has(sourceId); });
    if (!foreign) return hitRowsOf(ranked, chunks);
  }
  const ranked = await rankedOf(options.within ? sql`${currentChunksOf(sources)} and ${stampedWithin(options.within)}` : currentChunksOf(sources));
  return hitRowsOf(ranked, await cache.chunks(ranked.map((row) => row.id)));
}

const byScoreThenId = (a: { id: string; raw: number }, b: { id: string; raw: number }): number => a.raw - b.raw || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

function hitRowsOf(ranked: readonly { id: string; raw: number }[], chunks: ReadonlyMap<string, CachedChunk>): ChunkHitRow[] {
  const rows: ChunkHitRow[] = [];
  for (const row of ranked) {
    const chunk = chunks.get(row.id);
    if (!chunk) continue; // deleted between the two reads
    rows.push({ id: row.id, source_name: chunk.sourceName, source_kind: chunk.sourceKind, version_id: chunk.versionId, title: chunk.title, body: chunk.body, locator: chunk.locator, tokens: chunk.tokens, sensitive: chunk.sensitive, score: -row.raw });
  }
  return rows;
}
