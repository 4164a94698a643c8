/**
 * The source reads every plan() makes — the source list (with its sensitive-passage counts, an
 * aggregate over the marked chunks), the fingerprint of the allowed sources' versions and the
 * contradictions among their facts — and the contradictions each run's result reads for its
 * retrieved chunks, kept in process between writes. Measured on the demo corpus
 * (bench:plan-overhead, issue 16 point 5), these queries were most of an uncached plan(); they
 * change only when a source does.
 *
 * Soundness rides on explicit invalidation: whatever writes a source (ingest, a version switch, a
 * source marked stale, a retention sweep) calls invalidate() after its write, and the runtime wires
 * those hooks (server/runtime/index.ts). A read that was in flight when invalidate() ran is never
 * kept: the entry it would fill was dropped, so the next read goes to the plugin again.
 * Only for a database this process alone writes (the embedded one, under its lock); a shared
 * server is read through (another process may ingest), see cachedKnowledge's `enabled`.
 */
import type { Contradiction, KnowledgePlugin } from '../contracts/knowledge';
import type { SourceInfo } from '../types';

/** Entries kept per generation: one per distinct source set (a handful of roles × scopes × plan scopes). */
const MAX_SOURCE_SETS = 256;

export class SourceReadCache {
  private sourceList?: Promise<readonly SourceInfo[]>;
  private readonly fingerprints = new Map<string, Promise<string>>();
  private readonly contradictionSets = new Map<string, Promise<readonly Contradiction[]>>();
  private readonly chunkContradictions = new Map<string, Promise<readonly Contradiction[]>>();
  private generationValue = 0;
  private lastReason?: string;

  constructor(private readonly knowledge: Pick<KnowledgePlugin, 'sources' | 'fingerprint' | 'contradictions' | 'contradictionsAmong'>) {}

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
    const read: Promise<readonly SourceInfo[]> = this.knowledge.sources();
    read.catch(() => {
      if (this.sourceList === read) this.sourceList = undefined;
    });
    this.sourceList = read;
    return read;
  }

  fingerprint(sourceNames: readonly string[]): Promise<string> {
    return this.memo(this.fingerprints, sourceNames, () => this.knowledge.fingerprint(sourceNames));
  }

  /**
   * Contradictions among the named sources' current facts. Facts and their contradicts edges are
   * written only by the knowledge sync that follows a source change (fact-writer.ts), so the same
   * invalidation covers them; memories are separate nodes and never enter these groups.
   */
  contradictionsAmong(sourceNames: readonly string[]): Promise<readonly Contradiction[]> {
    const read = this.knowledge.contradictionsAmong;
    if (!read) return Promise.resolve([]);
    return this.memo(this.contradictionSets, sourceNames, () => read.call(this.knowledge, sourceNames));
  }

  /**
   * Contradictions touching the given chunks: what every answered run reads for its caveats, one
   * statement a run (bench:loc, 3.5–7 ms of its wall time). Same facts and edges as
   * contradictionsAmong, so the same invalidation covers them; keyed by the chunk set, since the
   * chunks a result holds pick which fact of each side is cited.
   */
  contradictions(chunkIds: readonly string[]): Promise<readonly Contradiction[]> {
    return this.memo(this.chunkContradictions, chunkIds, () => this.knowledge.contradictions(chunkIds));
  }

  /** Drops every cached read; call after any write to a source (and when the configuration changes). */
  invalidate(reason: string): void {
    this.generationValue++;
    this.lastReason = reason;
    this.sourceList = undefined;
    this.fingerprints.clear();
    this.contradictionSets.clear();
    this.chunkContradictions.clear();
  }

  /** One read per set of names or ids (order and repeats ignored); a failed read is not kept, so the next caller asks again. */
  private memo<T>(entries: Map<string, Promise<T>>, names: readonly string[], load: () => Promise<T>): Promise<T> {
    const key = [...new Set(names)].sort().join('\u0000');
    const known = entries.get(key);
    if (known) return known;
    if (entries.size >= MAX_SOURCE_SETS) entries.clear();
    const read = load();
    read.catch(() => {
      if (entries.get(key) === read) entries.delete(key);
    });
    entries.set(key, read);
    return read;
  }
}

/**
 * The knowledge plugin with sources(), fingerprint(), contradictions() and contradictionsAmong() answered from `cache`; every other member
 * is the plugin's own. `enabled` false = read through (a database other processes write).
 */
export function cachedKnowledge(knowledge: KnowledgePlugin, cache: SourceReadCache, enabled: boolean): KnowledgePlugin {
  if (!enabled) return knowledge;
  return Object.freeze({
    contract: knowledge.contract,
    sources: () => cache.sources(),
    fingerprint: (sourceNames: readonly string[]) => cache.fingerprint(sourceNames),
    contradictions: (chunkIds: readonly string[]) => cache.contradictions(chunkIds),
    ...(knowledge.contradictionsAmong ? { contradictionsAmong: (sourceNames: readonly string[]) => cache.contradictionsAmong(sourceNames) } : {}),
    ...(knowledge.recordAnswer ? { recordAnswer: (answer: Parameters<NonNullable<KnowledgePlugin['recordAnswer']>>[0]) => knowledge.recordAnswer!(answer) } : {}),
    ...(knowledge.compressedContexts ? { compressedContexts: knowledge.compressedContexts } : {}),
    ...(knowledge.explorer ? { explorer: knowledge.explorer } : {}),
    ...(knowledge.memories ? { memories: knowledge.memories } : {}),
  });
}
