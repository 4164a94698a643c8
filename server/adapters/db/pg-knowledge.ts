import { eq, inArray } from 'drizzle-orm';
import type { Database } from '../../../db/client';
import { sources, sourceVersions } from '../../../db/schema';
import { KNOWLEDGE_CONTRACT, type Contradiction, type KnowledgePlugin } from '../../runtime/contracts/knowledge';
import { ContextRuntimeError } from '../../runtime/errors';
import type { SourceInfo } from '../../runtime/types';
import { sha256Hex } from './ids';
import type { PgStore } from './pg-store';

/** Fingerprints remembered for the plan cache's source-name lookup; plenty for one process's distinct source sets. */
const REMEMBERED_FINGERPRINTS = 1024;

/** Provenance and versions over the Postgres store. */
export class PgKnowledge implements KnowledgePlugin {
  readonly contract = KNOWLEDGE_CONTRACT;
  private readonly namesByFingerprint = new Map<string, readonly string[]>();

  constructor(
    private readonly database: Database,
    private readonly store: PgStore,
  ) {}

  sources(): Promise<readonly SourceInfo[]> {
    return this.store.listSources();
  }

  /** sha256 over the sorted "name:versionId:contentHash" lines: changes exactly when a named source gets a new version. */
  async fingerprint(sourceNames: readonly string[]): Promise<string> {
    const names = [...new Set(sourceNames)].sort();
    const rows = names.length
      ? await this.database.db
          .select({ name: sources.name, versionId: sourceVersions.id, contentHash: sourceVersions.contentHash })
          .from(sources)
          .innerJoin(sourceVersions, eq(sourceVersions.id, sources.currentVersionId))
          .where(inArray(sources.name, names))
      : [];
    const byName = new Map(rows.map((row) => [row.name, row]));
    const unknown = names.filter((name) => !byName.has(name));
    if (unknown.length > 0) {
      throw new ContextRuntimeError('UNKNOWN_SOURCE', `unknown source${unknown.length > 1 ? 's' : ''}: ${unknown.join(', ')}`, {
        field: 'sources',
        details: { sources: unknown },
      });
    }
    const fingerprint = sha256Hex(names.map((name) => `${name}:${byName.get(name)!.versionId}:${byName.get(name)!.contentHash}`).join('\n'));
    this.remember(fingerprint, names);
    return fingerprint;
  }

  /** Filled by a later issue (fact extraction); no contradictions are claimed until facts exist. */
  async contradictions(_chunkIds: readonly string[]): Promise<readonly Contradiction[]> {
    return [];
  }

  /** The source names behind a fingerprint this process computed, for PgPlanCache.put. */
  namesOf(fingerprint: string): readonly string[] | undefined {
    return this.namesByFingerprint.get(fingerprint);
  }

  private remember(fingerprint: string, names: readonly string[]): void {
    this.namesByFingerprint.delete(fingerprint);
    this.namesByFingerprint.set(fingerprint, Object.freeze(names));
    if (this.namesByFingerprint.size > REMEMBERED_FINGERPRINTS) {
      const oldest = this.namesByFingerprint.keys().next().value;
      if (oldest !== undefined) this.namesByFingerprint.delete(oldest);
    }
  }
}
