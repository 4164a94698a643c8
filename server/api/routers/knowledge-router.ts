/**
 * The Knowledge page over tRPC: sources with versions and staleness, a source's facts, a node's
 * lineage, open contradictions. Thin by design: zod shape → one explorer call → result.
 */
import { z } from 'zod';
import type { KnowledgeExplorer } from '../../adapters/knowledge/knowledge-explorer';
import { ContextRuntimeError } from '../../runtime/errors';
import { type ApiContext, createTRPCRouter, viewerProcedure } from '../init';

/** The reads the page needs; PgKnowledge.explorer implements it. */
export type KnowledgePort = Pick<KnowledgeExplorer, 'sources' | 'versions' | 'facts' | 'lineage' | 'contradictions'>;

/**
 * The explorer behind the runtime's Knowledge plugin. The runtime exposes its plugin through
 * `knowledge()`; a plugin without an explorer (another store) has no page to show.
 */
async function explorerOf(ctx: ApiContext): Promise<KnowledgePort> {
  const runtime = (await ctx.runtime()) as { knowledge?: () => unknown };
  const plugin = typeof runtime.knowledge === 'function' ? runtime.knowledge() : undefined;
  const explorer = plugin && typeof plugin === 'object' ? (plugin as { explorer?: KnowledgePort }).explorer : undefined;
  if (!explorer) throw new ContextRuntimeError('INTERNAL', 'the runtime exposes no knowledge explorer (ContextRuntime.knowledge() returning PgKnowledge)');
  return explorer;
}

const sourceName = z.string().trim().min(1).max(200);

export const knowledgeRouter = createTRPCRouter({
  sources: viewerProcedure.query(async ({ ctx }) => (await explorerOf(ctx)).sources()),

  versions: viewerProcedure.input(z.object({ sourceName })).query(async ({ ctx, input }) => (await explorerOf(ctx)).versions(input.sourceName)),

  facts: viewerProcedure.input(z.object({ sourceName })).query(async ({ ctx, input }) => (await explorerOf(ctx)).facts(input.sourceName)),

  lineage: viewerProcedure.input(z.object({ nodeId: z.string().trim().min(1).max(200) })).query(async ({ ctx, input }) => (await explorerOf(ctx)).lineage(input.nodeId)),

  contradictions: viewerProcedure
    .input(z.object({ sourceName: sourceName.optional() }).default({}))
    .query(async ({ ctx, input }) => (await explorerOf(ctx)).contradictions(input.sourceName)),
});
