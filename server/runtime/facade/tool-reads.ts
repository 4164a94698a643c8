/**
 * What a tool_loop's tools may read in one run (execution/run-tools.ts): the plan's sources that
 * the run's principal may read now — checked again at run time with the same one authorization
 * (access/principal-access.ts), API-key scope included, as a resumed run's rights may have changed
 * — and the Knowledge Layer's current facts about a subject, kept only from those sources.
 */
import type { KnowledgeFact } from '../contracts/reasoner';
import type { ExplainResult } from '../explain/explain-types';
import type { ExecutionDependencies } from '../execution/node-executors';
import { principalAccess } from '../access/principal-access';
import { findNodesByRole } from '../ir/node-outputs';
import type { RunRequest } from '../types';
import type { RuntimePlugins } from './runtime-plugins';
import { ANONYMOUS } from './validate-request';

/** Facts one call returns at most: enough for one entity's configuration, small enough for a prompt. */
const FACTS_PER_CALL = 40;

export async function toolReadsFor(plugins: RuntimePlugins, request: RunRequest, explain: ExplainResult): Promise<Pick<ExecutionDependencies, 'toolReads'>> {
  const toolCalling = new Set(plugins.reasoners.filter((reasoner) => reasoner.requiresToolCalls).map((reasoner) => reasoner.strategy));
  if (!findNodesByRole(explain.graph, 'reason').some((node) => toolCalling.has(node.strategy))) return {};
  const access = principalAccess(plugins.policy, request.principal ?? ANONYMOUS, await plugins.knowledge.sources());
  const sources = (explain.selectedSources ?? []).filter((name) => access.mayReadSource(name));
  const memories = plugins.knowledge.memories;
  const facts = memories
    ? async (entity: string): Promise<readonly KnowledgeFact[]> => {
        // Subjects are stored lower-case (workload names: "checkout-api").
        const nodes = await memories.asOf(undefined, { subject: entity.toLowerCase(), kinds: ['fact'] });
        return nodes
          .filter((node) => node.sourceName !== null && sources.includes(node.sourceName))
          .slice(0, FACTS_PER_CALL)
          .map((node) => ({ subject: node.subject ?? entity, attribute: node.attribute ?? '', value: node.value ?? '', sourceName: node.sourceName! }));
      }
    : undefined;
  return { toolReads: { sources, ...(facts ? { facts } : {}) } };
}
