/**
 * The one authorization check of the runtime (architecture.md §5.12, issue 12 finding 3): what a
 * principal may read. Every read the runtime offers a caller — runs, traces, evidence chunks,
 * facts, memories, lineage, the approval log — asks this, so a new surface cannot forget it.
 *
 * Sources: the PolicyPlugin decides (config `policy.source_roles`), the same rule that decides
 * which sources a new run of theirs may use (plan-request.ts). Anything made of a source's content
 * (a chunk, a fact, a run's answer, plan or trace) is readable only by a principal who may read
 * every source it touched; a source since removed is checked by its name alone.
 *
 * Runs: beyond their sources, who asked matters while a run is not yet a published answer.
 *   - a completed run's answer is readable by anyone who may read its sources (the viewer's
 *     Answers page is built on this, and a citation opens its evidence);
 *   - a run in flight, failed or paused is its owner's — and a paused or decided run is also the
 *     approvers', who must read what they decide; admins read every run.
 * Not readable is reported as not found by the callers, so existence does not leak.
 */
import type { PolicyPlugin } from '../contracts/policy';
import type { RunRecord } from '../contracts/run-store';
import type { ExplainResult } from '../explain/explain-types';
import type { Intent, Principal, SourceInfo } from '../types';

/** The ranked roles of server/auth/roles.ts (the runtime imports nothing from auth; principal-access.test.ts checks they agree). */
export const RANKED_ROLES = ['viewer', 'operator', 'approver', 'admin'] as const;

const rankOf = (roles: readonly string[]): number => Math.max(-1, ...roles.map((role) => RANKED_ROLES.indexOf(role as (typeof RANKED_ROLES)[number])));

/** The policy reads a source's name and sensitivity; a removed source keeps its name, nothing else. */
function removedSource(name: string): SourceInfo {
  return { name, kind: 'docs', versionId: '', contentHash: '', chunkCount: 0, stale: true, sensitive: false, updatedAt: '', tokenCount: 0 };
}

/** Source permissions do not depend on the goal; the policy's signature asks for an intent all the same. */
const NEUTRAL_INTENT: Intent = { goal: '', normalized: '', primary: 'conceptual', classes: ['conceptual'], entities: [], identifiers: [], keywords: [], signals: [] };

/** The sources a stored run drew from: the plan's sources plus any a citation names. */
export function sourcesOfRun(explain: Pick<ExplainResult, 'selectedSources'>, citedSources: readonly string[] = []): readonly string[] {
  return [...new Set([...(explain.selectedSources ?? []), ...citedSources])];
}

export function sourcesOfRecord(record: RunRecord): readonly string[] {
  const explain = (record.plan as { explain?: ExplainResult } | undefined)?.explain;
  const cited = ((record.result as { citations?: readonly { sourceName: string }[] } | undefined)?.citations ?? []).map((citation) => citation.sourceName);
  return sourcesOfRun(explain ?? { selectedSources: [] }, cited);
}

export interface PrincipalAccess {
  readonly principal: Principal;
  readonly isAdmin: boolean;
  /** Decides approval gates (approver or admin). */
  readonly isApprover: boolean;
  mayReadSource(name: string): boolean;
  /** True when every named source is readable (vacuously true for none). */
  mayReadSources(names: readonly (string | null | undefined)[]): boolean;
  mayReadRun(record: RunRecord): boolean;
  /** Every source known now, and those of them this principal may read (in the knowledge plugin's order). */
  readonly knownSources: readonly SourceInfo[];
  readonly readableSources: readonly SourceInfo[];
}

/** `known` is the knowledge plugin's source list, read once per request. */
export function principalAccess(policy: PolicyPlugin, principal: Principal, known: readonly SourceInfo[]): PrincipalAccess {
  const byName = new Map(known.map((source) => [source.name, source]));
  const verdicts = new Map<string, boolean>();
  const mayReadSource = (name: string): boolean => {
    let verdict = verdicts.get(name);
    if (verdict === undefined) {
      verdict = policy.evaluate({ intent: NEUTRAL_INTENT, principal, sources: [byName.get(name) ?? removedSource(name)] }).deniedSources.length === 0;
      verdicts.set(name, verdict);
    }
    return verdict;
  };
  const rank = rankOf(principal.roles);
  const isAdmin = rank >= RANKED_ROLES.indexOf('admin');
  const isApprover = rank >= RANKED_ROLES.indexOf('approver');
  const mayReadSources = (names: readonly (string | null | undefined)[]) => names.every((name) => name === null || name === undefined || mayReadSource(name));
  return Object.freeze({
    principal,
    isAdmin,
    isApprover,
    mayReadSource,
    mayReadSources,
    knownSources: known,
    readableSources: known.filter((source) => mayReadSource(source.name)),
    mayReadRun(record: RunRecord): boolean {
      if (!mayReadSources(sourcesOfRecord(record))) return false;
      if (isAdmin || record.user === principal.user || record.status === 'completed' || record.status === 'unverified') return true;
      return isApprover && (record.status === 'awaiting_approval' || record.decisions.size > 0);
    },
  });
}
