import { eq, sql } from 'drizzle-orm';
import type { DrizzleTransaction } from '../../../db/client';
import { sources, sourceVersions } from '../../../db/schema';
import type { IngestChunk, IngestResult } from '../../runtime/contracts/store';
import type { SourceKind } from '../../runtime/types';
import { sourceIdOf, versionIdOf } from './ids';

export interface IngestedSource {
  readonly name: string;
  readonly kind: SourceKind;
  readonly sensitive?: boolean;
}

/** The version an ingest writes, or the unchanged result when the hash matches the current version. */
export type OpenedVersion =
  | { readonly unchanged: IngestResult }
  | { readonly unchanged?: undefined; readonly sourceId: string; readonly versionId: string; readonly previousVersionId?: string };

/**
 * Creates the source if new, locks its row and adds the next version row (not yet current). The
 * row lock serialises two ingests of one source for the version number; both the one-transaction
 * and the batched load start here.
 */
export async function openVersion(tx: DrizzleTransaction, source: IngestedSource, ingestChunks: readonly IngestChunk[], contentHash: string): Promise<OpenedVersion> {
  const sourceId = sourceIdOf(source.name);
  const documents = new Set(ingestChunks.map((chunk) => chunk.uri)).size;
  await tx.insert(sources).values({ id: sourceId, name: source.name, kind: source.kind, sensitive: source.sensitive ?? false }).onConflictDoNothing();
  const [locked] = await tx.select({ currentVersionId: sources.currentVersionId }).from(sources).where(eq(sources.id, sourceId)).for('update');
  const current = locked?.currentVersionId ? (await tx.select().from(sourceVersions).where(eq(sourceVersions.id, locked.currentVersionId)))[0] : undefined;
  if (current && current.contentHash === contentHash) {
    return { unchanged: { source: source.name, versionId: current.id, changed: false, documents, chunks: current.chunkCount } };
  }
  const [{ next }] = await tx
    .select({ next: sql<number>`coalesce(max(${sourceVersions.versionNo}), 0)::int + 1` })
    .from(sourceVersions)
    .where(eq(sourceVersions.sourceId, sourceId));
  const versionNo = Number(next);
  const versionId = versionIdOf(sourceId, versionNo, contentHash);
  const tokenCount = ingestChunks.reduce((sum, chunk) => sum + chunk.tokens, 0);
  await tx.insert(sourceVersions).values({ id: versionId, sourceId, versionNo, contentHash, chunkCount: ingestChunks.length, tokenCount });
  return { sourceId, versionId, ...(current ? { previousVersionId: current.id } : {}) };
}

/** Points the source at its new version and supersedes the old one: the last step of either load. */
export async function makeVersionCurrent(tx: DrizzleTransaction, source: IngestedSource, opened: { readonly sourceId: string; readonly versionId: string; readonly previousVersionId?: string }): Promise<void> {
  if (opened.previousVersionId) await tx.update(sourceVersions).set({ supersededAt: sql`now()` }).where(eq(sourceVersions.id, opened.previousVersionId));
  await tx
    .update(sources)
    // Sticky: a re-ingest that does not say "sensitive" must not clear it (issue 12, finding 2),
    // or a changed upload would send a sensitive source's new text to non-local models.
    .set({ currentVersionId: opened.versionId, kind: source.kind, sensitive: sql`${sources.sensitive} or ${source.sensitive ?? false}`, stale: false, staleReason: null, updatedAt: sql`now()` })
    .where(eq(sources.id, opened.sourceId));
}
