/**
 * The Knowledge page over tRPC: sources with versions and staleness, a source's facts, a node's
 * lineage, open contradictions, and the memory lifecycle (promote, expire, supersede, compact,
 * reads "as of" a valid time and a known time). Thin by design: zod shape → one call → result.
 */
import { z } from 'zod';
import { ContextRuntimeError } from '../../runtime/errors';
import { type ApiContext, createTRPCRouter, operatorProcedure, viewerProcedure } from '../init';
import type { KnowledgePort } from '../runtime-port';
import type { Principal } from '../../runtime/types';

/** A procedure's context after its role check: the caller is known. */
type SignedIn = ApiContext & { readonly principal: Principal };

/**
 * A part of the runtime's Knowledge plugin (PgKnowledge has both); a plugin without that part
 * (another store) has no page to show.
 */
async function partOf<Part extends keyof KnowledgePort>(ctx: SignedIn, part: Part, description: string): Promise<NonNullable<KnowledgePort[Part]>> {
  // Scoped to the caller: sources, facts, lineage and memories they may not read are not found.
  const found = (await (await ctx.runtime()).knowledge(ctx.principal))[part];
  if (!found) throw new ContextRuntimeError('INTERNAL', `the runtime's Knowledge plugin has no ${description} (PgKnowledge has one)`);
  return found;
}

const explorerOf = (ctx: SignedIn) => partOf(ctx, 'explorer', 'knowledge explorer');
const memoriesOf = (ctx: SignedIn) => partOf(ctx, 'memories', 'memory store');

const sourceName = z.string().trim().min(1).max(200);
const nodeId = z.string().trim().min(1).max(200);
const confidence = z.number().min(0, 'must be between 0 and 1').max(1, 'must be between 0 and 1');

/**
 * An instant on the wire: ISO-8601 with a time zone (Z or ±hh:mm), so the server never guesses
 * which zone a bare "16:41" was meant in.
 */
const instant = z.iso
  .datetime({ offset: true, message: 'must be an ISO-8601 instant with a time zone, e.g. 2025-06-02T16:41:00Z' })
  .transform((value, context) => {
    const date = new Date(value);
    if (Number.isNaN(date.getTime())) context.addIssue({ code: 'custom', message: `is not a real instant: ${value}` });
    return date;
  });

const memoryFilter = z.strictObject({
  validAt: instant.optional(),
  knownAt: instant.optional(),
  subject: z.string().trim().min(1).max(200).optional(),
  attribute: z.string().trim().min(1).max(200).optional(),
  kinds: z.array(z.enum(['memory', 'fact'])).min(1).max(2).optional(),
});

export const knowledgeRouter = createTRPCRouter({
  sources: viewerProcedure.query(async ({ ctx }) => (await explorerOf(ctx)).sources()),

  versions: viewerProcedure.input(z.object({ sourceName })).query(async ({ ctx, input }) => (await explorerOf(ctx)).versions(input.sourceName)),

  facts: viewerProcedure.input(z.object({ sourceName })).query(async ({ ctx, input }) => (await explorerOf(ctx)).facts(input.sourceName)),

  lineage: viewerProcedure.input(z.object({ nodeId })).query(async ({ ctx, input }) => (await explorerOf(ctx)).lineage(input.nodeId)),

  contradictions: viewerProcedure
    .input(z.object({ sourceName: sourceName.optional() }).default({}))
    .query(async ({ ctx, input }) => (await explorerOf(ctx)).contradictions(input.sourceName)),

  /** What was believed at `knownAt` to be true at `validAt` (both default to now). */
  memories: viewerProcedure.input(memoryFilter.default({})).query(async ({ ctx, input }) => {
    const { validAt, knownAt, ...filter } = input;
    return (await memoriesOf(ctx)).asOf({ validAt, knownAt }, filter);
  }),

  promoteFact: operatorProcedure
    .input(z.strictObject({ factId: nodeId, confidence, text: z.string().trim().min(1).max(2000).optional() }))
    .mutation(async ({ ctx, input }) => (await memoriesOf(ctx)).promote(input.factId, { confidence: input.confidence, text: input.text })),

  expireMemory: operatorProcedure
    .input(z.strictObject({ memoryId: nodeId, at: instant.optional(), reason: z.string().trim().min(1).max(500).optional() }))
    .mutation(async ({ ctx, input }) => (await memoriesOf(ctx)).expire(input.memoryId, { at: input.at, reason: input.reason ?? `expired by ${ctx.principal.user}` })),

  supersedeMemory: operatorProcedure
    .input(
      z.strictObject({
        memoryId: nodeId,
        value: z.string().trim().min(1).max(500),
        confidence,
        text: z.string().trim().min(1).max(2000).optional(),
        validFrom: instant.optional(),
        derivedFrom: z.array(nodeId).max(50).optional(),
      }),
    )
    .mutation(async ({ ctx, input }) => {
      const { memoryId, ...replacement } = input;
      return (await memoriesOf(ctx)).supersede(memoryId, replacement);
    }),

  compactMemories: operatorProcedure.mutation(async ({ ctx }) => (await memoriesOf(ctx)).compact()),
});
