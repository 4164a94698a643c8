import type { SourceInfo, SourceKind } from '../types';

/** Contract version of the Store plugin. */
export const STORE_CONTRACT = 'store/v1' as const;

/** What the database under the store can do; discovered at start, never assumed. */
export interface StoreCapabilities {
  /** e.g. "embedded-pglite" or "postgres-server". */
  readonly backend: string;
  /** Installed extensions by name ("vector", "pg_textsearch"). */
  readonly extensions: Readonly<Record<string, boolean>>;
  /** Human reasons for each missing extension, quoted by EXPLAIN. */
  readonly missing: Readonly<Record<string, string>>;
}

/** One document to ingest, already parsed from its file format. */
export interface IngestDocument {
  /** Stable path-like key within the source (file path, "commit <sha>"). */
  readonly uri: string;
  readonly title: string;
  readonly text: string;
  /** Per-chunk locator hints (line numbers, commit SHAs) are derived by the chunker. */
  readonly metadata?: Readonly<Record<string, unknown>>;
}

export interface IngestChunk {
  readonly uri: string;
  readonly ordinal: number;
  readonly title: string;
  readonly text: string;
  readonly locator?: string;
  readonly tokens: number;
  readonly metadata?: Readonly<Record<string, unknown>>;
  /** Found only by a lookup search, never by the general ones (the file diffs a commit's chunk cut; see ingest/commit-file-parts.ts). */
  readonly lookupOnly?: boolean;
}

export interface IngestResult {
  readonly source: string;
  readonly versionId: string;
  /** False when the content hash matched the current version: nothing was written. */
  readonly changed: boolean;
  readonly documents: number;
  readonly chunks: number;
}

/** One file a caller sent with an upload: its path inside the upload (posix, relative) and its bytes. */
export interface UploadedFile {
  /** "runbooks/rollback.md": becomes the chunk uri, so a re-upload of the same tree keeps its uris. */
  readonly path: string;
  readonly content: Uint8Array;
}

/** A file or folder an ingest left out, and why ("binary content (NUL byte at offset 0)", "unsupported file type \".png\""). */
export interface IngestSkipped {
  /** The path on the machine that ingested (absolute), or the file's path inside an upload. */
  readonly path: string;
  /** Says why in words; never quotes the file's content. */
  readonly reason: string;
}

/** One ingest call: the sources written (or found unchanged) and everything it did not read. */
export interface IngestReport {
  readonly sources: readonly IngestResult[];
  /** Never dropped: a file left out silently is a question a user cannot answer. */
  readonly skipped: readonly IngestSkipped[];
}

/** Persistence of sources and chunks: the physical half of the Knowledge Layer. */
export interface StorePlugin {
  readonly contract: typeof STORE_CONTRACT;
  capabilities(): StoreCapabilities;
  listSources(): Promise<readonly SourceInfo[]>;
  /**
   * Writes a new source version: all chunks or none once it settles (a failure leaves the old
   * version current); a large version may be switched on in batches, during which a reader can see
   * part of it beside the old one. A same-hash re-ingest is a no-op. `signal` (a cancel, a timeout)
   * stops the write between batches and undoes it: the old version stays current, as on a failure.
   */
  ingest(
    source: { readonly name: string; readonly kind: SourceKind; readonly sensitive?: boolean },
    chunks: readonly IngestChunk[],
    contentHash: string,
    options?: { readonly signal?: AbortSignal },
  ): Promise<IngestResult>;
  /**
   * Calls `listener` after a source got a new version or was marked stale, once the write (and
   * every listener registered before it) is done: the runtime empties its source-read cache here.
   */
  onSourceChanged?(listener: (sourceName: string) => Promise<void>): void;
}
