/**
 * The two phases of a benchmark database, both on a fresh embedded PGlite in a temp directory:
 *
 * 1. ingest: the corpus goes through the real store (PgStore.ingest, one chunk per document,
 *    uri = the document's _id so qrels map back), timed apart from token counting, from the
 *    Knowledge Layer's ingest hook, from embedding (openStores' embedChunks, the configured
 *    embedder) and from the graph and identifier indexes, each timed on its own;
 * 2. runtime: the same directory opened as a ContextRuntime from a config file, the way the server
 *    and CLI open it (server/bootstrap), so every method is measured through the plugins the
 *    runtime plans with.
 *
 * Two phases because PGlite allows one open handle per data directory.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { stringify } from 'yaml';
import { openStores } from '../../server/adapters/db/open-stores';
import { countTokens } from '../../server/adapters/models/token-counter';
import type { IngestChunk } from '../../server/runtime/contracts/store';
import type { BeirDataset } from './beir-dataset';

export interface IngestFigures {
  readonly chunks: number;
  /** PgStore.ingest alone: the transaction that writes version, chunks and both text indexes. */
  readonly ingestSeconds: number;
  readonly chunksPerSecond: number;
  /** Counting every chunk's tokens with the runtime's tokenizer (o200k), before ingest. */
  readonly tokenCountSeconds: number;
  /** The Knowledge Layer's ingest hook (knowledge.syncSource: version, source and chunk nodes, facts), which the store runs after each ingest. */
  readonly knowledgeSyncSeconds: number;
  /** The stored search vectors for the reranker and full-text (filled after ingest where bm25 is the lexical index). */
  readonly searchVectorSeconds: number;
  /** The graph and identifier indexes (stores.indexDerived). */
  readonly derivedIndexSeconds: number;
  readonly embedding: { readonly embedderId: string; readonly chunks: number; readonly seconds: number; readonly chunksPerSecond: number } | { readonly skipped: string };
}

export interface BenchCorpus {
  readonly root: string;
  readonly dataDir: string;
  readonly sourceName: string;
  /** chunk id → corpus _id. */
  readonly documentOf: ReadonlyMap<string, string>;
  readonly figures: IngestFigures;
}

/** A source name the runtime accepts (letters, digits, . _ -), from the dataset folder's name. */
export const sourceNameOf = (dataset: BeirDataset): string => dataset.name.replace(/[^A-Za-z0-9._-]/g, '-').replace(/^[^A-Za-z0-9]+/, '').slice(0, 64) || 'corpus';

export async function ingestDataset(dataset: BeirDataset, root = mkdtempSync(join(tmpdir(), 'bench-retrieval-'))): Promise<BenchCorpus> {
  const dataDir = join(root, 'pglite');
  const sourceName = sourceNameOf(dataset);
  const countStarted = performance.now();
  const chunks: IngestChunk[] = dataset.documents.map((document) => ({
    uri: document.id,
    ordinal: 0,
    title: document.title,
    text: document.text,
    // The same text the indexes see (insertChunks stores title + "\n" + text as search_text).
    tokens: countTokens(`${document.title}\n${document.text}`),
  }));
  const tokenCountSeconds = (performance.now() - countStarted) / 1000;
  const contentHash = createHash('sha256').update(dataset.documents.map((document) => `${document.id}\u0000${document.title}\u0000${document.text}`).join('\u0001')).digest('hex');

  // The knowledge hook is run by hand below, so the store's own ingest is timed alone.
  const stores = await openStores({ dataDir, syncKnowledgeOnIngest: false });
  try {
    const seconds = async (work: () => Promise<unknown>) => {
      const started = performance.now();
      await work();
      return (performance.now() - started) / 1000;
    };
    const ingestSeconds = await seconds(() => stores.store.ingest({ name: sourceName, kind: 'docs' }, chunks, contentHash));
    const knowledgeSyncSeconds = await seconds(() => stores.knowledge.syncSource(sourceName));
    const embedding = await embed(stores);
    const searchVectorSeconds = await seconds(() => stores.fillSearchVectors());
    const derivedIndexSeconds = await seconds(() => stores.indexDerived());
    const rows = await stores.database.query<{ id: string; uri: string }>(sql`select id, uri from chunks where is_current`);
    return Object.freeze({
      root,
      dataDir,
      sourceName,
      documentOf: new Map(rows.map((row) => [row.id, row.uri])),
      figures: Object.freeze({ chunks: chunks.length, ingestSeconds, chunksPerSecond: chunks.length / ingestSeconds, tokenCountSeconds, knowledgeSyncSeconds, searchVectorSeconds, derivedIndexSeconds, embedding }),
    });
  } finally {
    await stores.close();
  }
}

async function embed(stores: Awaited<ReturnType<typeof openStores>>): Promise<IngestFigures['embedding']> {
  const dense = stores.dense.capabilities();
  if (!dense.available && dense.unavailableReason?.startsWith('no current chunk') !== true) return { skipped: dense.unavailableReason ?? 'dense unavailable' };
  const started = performance.now();
  const report = await stores.embedChunks();
  const seconds = (performance.now() - started) / 1000;
  if (report.embedded === 0) return { skipped: stores.dense.capabilities().unavailableReason ?? 'nothing was embedded' };
  return { embedderId: report.embedderId, chunks: report.embedded, seconds, chunksPerSecond: report.embedded / seconds };
}

/**
 * The runtime's config for a benchmark: the same for every dataset (no per-dataset switch).
 * top_k 100 so Recall@100 is measurable for the planner too; the context budget from --budget.
 */
export function writeBenchConfig(corpus: BenchCorpus, budget: number): string {
  const configPath = join(corpus.root, 'context-runtime.yaml');
  writeFileSync(
    configPath,
    stringify({
      database: { data_dir: corpus.dataDir },
      demo: { load_on_start: false },
      retrieval: { top_k: 100, final_k: 8, context_token_budget: budget },
    }),
  );
  return configPath;
}
