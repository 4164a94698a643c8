import type { IngestChunk, IngestResult, StoreCapabilities, StorePlugin } from '../../runtime/contracts/store';
import { STORE_CONTRACT } from '../../runtime/contracts/store';
import type { SourceInfo, SourceKind } from '../../runtime/types';

interface StoredSource {
  readonly info: SourceInfo;
  readonly chunks: readonly IngestChunk[];
}

/**
 * In-memory StorePlugin for ingest tests: keeps the contract's visible behaviour (a same-hash
 * re-ingest writes nothing and keeps the version) and counts the calls, without a database.
 */
export class MemoryStore implements StorePlugin {
  readonly contract = STORE_CONTRACT;
  readonly sources = new Map<string, StoredSource>();
  ingestCalls = 0;
  private versionCounter = 0;

  capabilities(): StoreCapabilities {
    return { backend: 'memory', extensions: {}, missing: {} };
  }

  async listSources(): Promise<readonly SourceInfo[]> {
    return [...this.sources.values()].map((source) => source.info);
  }

  async ingest(source: { readonly name: string; readonly kind: SourceKind; readonly sensitive?: boolean }, chunks: readonly IngestChunk[], contentHash: string): Promise<IngestResult> {
    this.ingestCalls++;
    const current = this.sources.get(source.name);
    const documents = new Set(chunks.map((chunk) => chunk.uri)).size;
    if (current && current.info.contentHash === contentHash) {
      return { source: source.name, versionId: current.info.versionId, changed: false, documents, chunks: chunks.length };
    }
    const versionId = `v${++this.versionCounter}`;
    const info: SourceInfo = {
      name: source.name,
      kind: source.kind,
      versionId,
      contentHash,
      chunkCount: chunks.length,
      stale: false,
      // Sticky across versions, as in PgStore.
      sensitive: (source.sensitive ?? false) || (current?.info.sensitive ?? false),
      updatedAt: new Date(0).toISOString(),
      tokenCount: chunks.reduce((total, chunk) => total + chunk.tokens, 0),
    };
    this.sources.set(source.name, { info, chunks });
    return { source: source.name, versionId, changed: true, documents, chunks: chunks.length };
  }
}
