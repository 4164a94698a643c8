/**
 * The Knowledge page's reads and memory changes as one principal may make them: everything drawn
 * from a source they may not read is left out, and a node, fact or memory whose lineage touches
 * such a source is "not found" — the same answer as for an id that does not exist, so neither
 * its content nor its existence leaks (issue 12, finding 3). Operators change memories only of
 * sources they may read; compaction merges memories across every source, so it needs them all.
 */
import type { KnowledgePlugin } from '../contracts/knowledge';
import type { KnowledgeExplorerPort, KnowledgeNodeView, Lineage, MemoryLifecyclePort } from '../contracts/knowledge-explorer';
import { ContextRuntimeError, isContextRuntimeError } from '../errors';
import type { PrincipalAccess } from './principal-access';

/** The parts of the Knowledge plugin a page reads, scoped to one principal. */
export type ScopedKnowledge = Pick<KnowledgePlugin, 'explorer' | 'memories'>;

/** What the explorer says for a source that does not exist (knowledge-explorer.ts), said for one the caller may not read too. */
const unknownSource = (name: string) => new ContextRuntimeError('UNKNOWN_SOURCE', `unknown source "${name}"`, { field: 'sourceName', details: { source: name } });

const notFound = (what: string, field: string, id: string) => new ContextRuntimeError('NOT_FOUND', `no ${what} "${id}"`, { field, details: { [field]: id } });

const readableNode = (access: PrincipalAccess, node: KnowledgeNodeView) => access.mayReadSources([node.sourceName]);

export function scopedKnowledge(plugin: Pick<KnowledgePlugin, 'explorer' | 'memories'>, access: PrincipalAccess): ScopedKnowledge {
  const { explorer, memories } = plugin;
  const requireSource = (name: string) => {
    if (!access.mayReadSource(name)) throw unknownSource(name);
  };
  /** The lineage of a node the caller may read whole, or the not-found a missing node gets. */
  const readableLineage = async (nodeId: string, what: string, field: string): Promise<Lineage> => {
    if (!explorer) throw new ContextRuntimeError('INTERNAL', "the runtime's Knowledge plugin has no explorer to check a node's sources against");
    let lineage: Lineage;
    try {
      lineage = await explorer.lineage(nodeId);
    } catch (error) {
      if (isContextRuntimeError(error) && error.code === 'NOT_FOUND') throw notFound(what, field, nodeId);
      throw error;
    }
    if (![lineage.node, ...lineage.chain].every((node) => readableNode(access, node))) throw notFound(what, field, nodeId);
    return lineage;
  };

  const scopedExplorer: KnowledgeExplorerPort | undefined = explorer && {
    sources: async () => (await explorer.sources()).filter((source) => access.mayReadSource(source.name)),
    versions: async (sourceName) => (requireSource(sourceName), explorer.versions(sourceName)),
    facts: async (sourceName) => (requireSource(sourceName), explorer.facts(sourceName)),
    lineage: (nodeId) => readableLineage(nodeId, 'knowledge node', 'nodeId'),
    contradictions: async (sourceName) => {
      if (sourceName !== undefined) requireSource(sourceName);
      // A group names every side of the disagreement: shown only when the caller may read them all.
      return (await explorer.contradictions(sourceName)).filter((group) => access.mayReadSources(group.facts.map((fact) => fact.sourceName)));
    },
  };

  const scopedMemories: MemoryLifecyclePort | undefined = memories && {
    asOf: async (when, filter) => (await memories.asOf(when, filter)).filter((node) => readableNode(access, node)),
    promote: async (factId, options) => (await readableLineage(factId, 'fact', 'factId'), memories.promote(factId, options)),
    expire: async (memoryId, options) => (await readableLineage(memoryId, 'memory', 'memoryId'), memories.expire(memoryId, options)),
    supersede: async (memoryId, replacement) => {
      await readableLineage(memoryId, 'memory', 'memoryId');
      for (const [index, nodeId] of (replacement.derivedFrom ?? []).entries()) await readableLineage(nodeId, 'knowledge node', `derivedFrom.${index}`);
      return memories.supersede(memoryId, replacement);
    },
    compact: async () => {
      if (access.readableSources.length !== access.knownSources.length) {
        throw new ContextRuntimeError('CONFLICT', 'compaction merges memories of every source, and some are not readable to you: ask someone who may read them all');
      }
      return memories.compact();
    },
  };
  return Object.freeze({ explorer: scopedExplorer, memories: scopedMemories });
}
