/**
 * The tools a tool_loop reasoner's model may call, bound to one run (issue 15 point 2). They read
 * only what the run may read: the plan's sources that the run's principal may read (the facade
 * intersects them with principal-access.ts before the run starts), narrowed further to the sources
 * a call names. A named source outside them is answered like one that does not exist, and nothing
 * is read from it; every hit and fact is checked against the same set once more on the way out,
 * so a retriever that ignored its source filter still leaks nothing.
 */
import type { KnowledgeFact, ReasoningTools, ToolRead } from '../contracts/reasoner';
import type { RetrieverPlugin } from '../contracts/retriever';
import type { CallAdmission } from '../contracts/router';
import { ContextRuntimeError } from '../errors';
import type { Hit } from '../types';

export interface RunToolsInput {
  readonly retrievers: ReadonlyMap<string, RetrieverPlugin>;
  /** The plan's retrieval method: what `retrieve` searches with. */
  readonly retrieveMethod: string;
  /** The sources this run may read (already checked against the principal). */
  readonly sources: readonly string[];
  /** Facts about a subject from the Knowledge Layer, unscoped: filtered here. Absent: no facts. */
  readonly facts?: (entity: string) => Promise<readonly KnowledgeFact[]>;
  readonly localOnly: boolean;
  readonly sensitiveSources: readonly string[];
  /** The node's budget admission, for a retriever that calls a model itself. */
  readonly admit?: CallAdmission;
}

/** The identifier index answers exact lookups; without it the plan's own method does. */
const EXACT_METHOD = 'exact';

export function runTools(input: RunToolsInput): ReasoningTools {
  const permitted = new Set(input.sources);
  const narrow = (asked: readonly string[] | undefined) => {
    const wanted = asked && asked.length > 0 ? [...new Set(asked)] : input.sources;
    return { sources: wanted.filter((name) => permitted.has(name)), unknownSources: wanted.filter((name) => !permitted.has(name)) };
  };
  const retrieverFor = (how: 'retrieve' | 'exact'): RetrieverPlugin => {
    const exact = how === 'exact' ? input.retrievers.get(EXACT_METHOD) : undefined;
    const found = exact && exact.capabilities().available ? exact : input.retrievers.get(input.retrieveMethod);
    if (!found) throw new ContextRuntimeError('NODE_FAILED', `no retriever "${input.retrieveMethod}" is registered for the tool loop`);
    return found;
  };
  return Object.freeze({
    sources: Object.freeze([...input.sources]),
    async search(query, signal): Promise<ToolRead<Hit>> {
      const { sources, unknownSources } = narrow(query.sources);
      // No permitted source asked for: nothing is searched (an empty source list is no filter to every retriever).
      if (sources.length === 0 || query.text.trim().length === 0) return { items: [], unknownSources };
      const hits = await retrieverFor(query.how).search({
        text: query.text,
        k: query.k,
        sources,
        ...(query.how === 'exact' ? { identifiers: [query.text.trim()] } : {}),
        localOnly: input.localOnly,
        sensitiveSources: input.sensitiveSources,
        ...(input.admit ? { admit: input.admit } : {}),
        ...(signal ? { signal } : {}),
      });
      return { items: hits.filter((hit) => sources.includes(hit.sourceName)), unknownSources };
    },
    async facts(query): Promise<ToolRead<KnowledgeFact>> {
      const { sources, unknownSources } = narrow(query.sources);
      if (sources.length === 0 || !input.facts || query.entity.trim().length === 0) return { items: [], unknownSources };
      const facts = await input.facts(query.entity.trim());
      return { items: facts.filter((fact) => sources.includes(fact.sourceName)), unknownSources };
    },
  } satisfies ReasoningTools);
}
