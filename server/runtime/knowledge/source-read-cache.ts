/**
 * The source reads every plan() makes — the source list (with its sensitive-passage counts, an
 * aggregate over the marked chunks) and the fingerprint of the allowed sources' versions — kept in
 * process between writes. Measured on the demo corpus (bench:plan-overhead, issue 16 point 5),
 * these three queries were most of an uncached plan(); they change only when a source does.
 *
 * Soundness rides on explicit invalidation: whatever writes a source (ingest, a version switch, a
 * source marked stale, a retention sweep) calls invalidate() after its write, and the runtime wires
 * those hooks (server/runtime/index.ts). A read that was in flight when invalidate() ran is never
 * kept: the entry it would fill was dropped, so the next read goes to the plugin again.
 * Only for a database this process alone writes (the embedded one, under its lock); a shared
 * server is read through (another process may ingest), see cachedKnowledge's `enabled`.
 */
import type { KnowledgePlugin } from '../contracts/knowledge';
import type { SourceInfo } from '../types';

/** Fingerprints kept per generation: one per distinct allowed-source set (a handful of roles × scopes). */
const MAX_FINGERPRINTS = 256;

export class SourceReadCache {
  private sourceList?: Promise<readonly SourceInfo[]>;
  private readonly fingerprints = new Map<string, Promise<string>>();
  private generationValue = 0;
  private lastReason?: string;

  constructor(private readonly knowledge: Pick<KnowledgePlugin, 'sources' | 'fingerprint'>) {}

  /** Bumped by every invalidate(): a test or EXPLAIN can tell that a write was seen. */
  get generation(): number {
    return this.generationValue;
  }

  /** Why the cache was last emptied ("source demo-docs changed", "retention sweep"), for diagnostics. */
  get lastInvalidation(): string | undefined {
    return this.lastReason;
  }

  sources(): Promise<readonly SourceInfo[]> {
    if (this.sourceList) return this.sourceList;
    const read: Promise<readonly SourceInfo[]> = this.remember(this.knowledge.sources(), () => {
      if (this.sourceList === read) this.sourceList = undefined;
    });
    this.sourceList = read;
    return read;
  }

  fingerprint(sourceNames: readonly string[]): Promise<string> {
    const key = [...new Set(sourceNames)].sort().join('\u0000');
    const known = this.fingerprints.get(key);
    if (known) return known;
    if (this.fingerprints.size >= MAX_FINGERPRINTS) this.fingerprints.clear();
    const read = this.remember(this.knowledge.fingerprint(sourceNames), () => {
      if (this.fingerprints.get(key) === read) this.fingerprints.delete(key);
    });
    this.fingerprints.set(key, read);
    return read;
  }

  /** Drops every cached read; call after any write to a source (and when the configuration changes). */
  invalidate(reason: string): void {
    this.generationValue++;
    this.lastReason = reason;
    this.sourceList = undefined;
    this.fingerprints.clear();
  }

  /** A failed read is not kept: the next caller asks the plugin again (and sees the error itself). */
  private remember<T>(read: Promise<T>, forget: () => void): Promise<T> {
    read.catch(forget);
    return read;
  }
}

/**
 * The knowledge plugin with sources() and fingerprint() answered from `cache`; every other member
 * is the plugin's own. `enabled` false = read through (a database other processes write).
 */
export function cachedKnowledge(knowledge: KnowledgePlugin, cache: SourceReadCache, enabled: boolean): KnowledgePlugin {
  if (!enabled) return knowledge;
  return Object.freeze({
    contract: knowledge.contract,
    sources: () => cache.sources(),
    fingerprint: (sourceNames: readonly string[]) => cache.fingerprint(sourceNames),
    contradictions: (chunkIds: readonly string[]) => knowledge.contradictions(chunkIds),
    ...(knowledge.contradictionsAmong ? { contradictionsAmong: (sourceNames: readonly string[]) => knowledge.contradictionsAmong!(sourceNames) } : {}),
    ...(knowledge.recordAnswer ? { recordAnswer: (answer: Parameters<NonNullable<KnowledgePlugin['recordAnswer']>>[0]) => knowledge.recordAnswer!(answer) } : {}),
    ...(knowledge.explorer ? { explorer: knowledge.explorer } : {}),
    ...(knowledge.memories ? { memories: knowledge.memories } : {}),
  });
}
