/**
 * Stage `sources`: the sources a request may plan over — the ones it named (an unknown name is the
 * caller's mistake, named in the error) that are not stale — and why each other one was left out.
 */
import { ContextRuntimeError } from '../../errors';
import type { KnowledgePlugin } from '../../contracts/knowledge';
import type { RejectedSource, RunRequest, SourceInfo } from '../../types';

export interface SourceSelection {
  readonly selected: readonly SourceInfo[];
  readonly rejected: readonly RejectedSource[];
}

export function selectSources(request: RunRequest, all: readonly SourceInfo[]): SourceSelection {
  if (request.sources) {
    const known = new Set(all.map((source) => source.name));
    const unknown = request.sources.filter((name) => !known.has(name));
    if (unknown.length > 0) {
      throw new ContextRuntimeError('UNKNOWN_SOURCE', `sources: unknown source ${unknown.map((name) => `"${name}"`).join(', ')} (known: ${[...known].sort().join(', ') || 'none'})`, { field: 'sources', details: { unknown, known: [...known].sort() } });
    }
  }
  const rejected: RejectedSource[] = [];
  const selected: SourceInfo[] = [];
  for (const source of all) {
    if (request.sources && !request.sources.includes(source.name)) rejected.push({ source: source.name, reason: 'not_selected', detail: 'not among the requested sources' });
    else if (source.stale) rejected.push({ source: source.name, reason: 'stale', detail: source.staleReason ?? 'a newer version of what it was derived from exists' });
    else selected.push(source);
  }
  return { selected, rejected };
}

/** Reads the source list (the runtime's source-read cache answers between writes) and selects from it. */
export async function sourceSelectionStage(knowledge: Pick<KnowledgePlugin, 'sources'>, request: RunRequest): Promise<SourceSelection> {
  return selectSources(request, await knowledge.sources());
}
