/**
 * Who may read a stored run. A run's answer, draft and plan are made of what its sources said, so
 * a principal may read the run only if the policy lets them read every source it drew from — the
 * same PolicyPlugin rule that decides which sources a new run of theirs may use (plan-request.ts).
 * A run is checked against the policy as it is now: a source restricted after the run hides it too.
 */
import type { PolicyPlugin } from '../contracts/policy';
import type { RunRecord } from '../contracts/run-store';
import type { ExplainResult } from '../explain/explain-types';
import type { Principal, SourceInfo } from '../types';
import type { StoredPlan } from './execute-run';

/** The sources a stored run drew from: the plan's sources plus any a citation names. */
export function sourcesOfRun(explain: ExplainResult, citedSources: readonly string[] = []): readonly string[] {
  return [...new Set([...explain.selectedSources, ...citedSources])];
}

/**
 * A predicate over stored runs for one principal. `known` is the knowledge plugin's source list
 * (read once per request); a source since removed is checked by its name alone.
 */
export function runReader(policy: PolicyPlugin, principal: Principal, known: readonly SourceInfo[]): (record: RunRecord) => boolean {
  const byName = new Map(known.map((source) => [source.name, source]));
  return (record) => {
    const { explain } = record.plan as StoredPlan;
    const cited = ((record.result as { citations?: readonly { sourceName: string }[] } | undefined)?.citations ?? []).map((citation) => citation.sourceName);
    const sources = sourcesOfRun(explain, cited).map((name) => byName.get(name) ?? removedSource(name));
    if (sources.length === 0) return true;
    return policy.evaluate({ intent: explain.intent, principal, sources }).deniedSources.length === 0;
  };
}

/** The policy reads a source's name and sensitivity; a removed source keeps its name, nothing else. */
function removedSource(name: string): SourceInfo {
  return { name, kind: 'docs', versionId: '', contentHash: '', chunkCount: 0, stale: true, sensitive: false, updatedAt: '', tokenCount: 0 };
}
