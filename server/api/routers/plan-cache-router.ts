/**
 * The Plan Cache over tRPC: lookups, hits and near misses per time bucket with the hit rate
 * (viewers), and retiring cached plans by source or all at once (admins: it costs every user a
 * re-plan). Thin by design: zod shape → one plugin call → result.
 */
import { z } from 'zod';
import { ContextRuntimeError } from '../../runtime/errors';
import { adminProcedure, type ApiContext, createTRPCRouter, viewerProcedure } from '../init';
import type { PlanCachePort } from '../runtime-port';

const MINUTE_MS = 60_000;
/** A chart wider than this many buckets is unreadable and an expensive query. */
const MAX_BUCKETS = 1000;

async function planCacheOf(ctx: ApiContext): Promise<PlanCachePort> {
  const cache = (await ctx.runtime()).planCache();
  if (!cache) throw new ContextRuntimeError('CONFLICT', 'this runtime has no plan cache (plan_cache.enabled is false or no cache is wired)');
  return cache;
}

const statsInput = z
  .object({
    /** How far back, in minutes (default one day, at most 30 days). */
    sinceMinutes: z.number().int().min(1).max(30 * 24 * 60).default(24 * 60),
    bucketMinutes: z.number().int().min(1).max(24 * 60).default(60),
  })
  .strict()
  .refine((input) => input.sinceMinutes / input.bucketMinutes <= MAX_BUCKETS, { message: `at most ${MAX_BUCKETS} buckets: widen bucketMinutes`, path: ['bucketMinutes'] })
  .default({ sinceMinutes: 24 * 60, bucketMinutes: 60 });

const invalidateInput = z.union([
  z.object({ sourceName: z.string().trim().min(1).max(200), reason: z.string().trim().max(500).optional() }).strict(),
  z.object({ all: z.literal(true), reason: z.string().trim().max(500).optional() }).strict(),
]);

export const planCacheRouter = createTRPCRouter({
  stats: viewerProcedure.input(statsInput).query(async ({ ctx, input }) => {
    const until = new Date();
    // Buckets align to whole bucket widths so a refresh does not shift every bar.
    const width = input.bucketMinutes * MINUTE_MS;
    const since = new Date(Math.floor((until.getTime() - input.sinceMinutes * MINUTE_MS) / width) * width);
    return (await planCacheOf(ctx)).stats({ since, until: new Date(until.getTime() + MINUTE_MS), bucketSeconds: input.bucketMinutes * 60 });
  }),

  invalidate: adminProcedure.input(invalidateInput).mutation(async ({ ctx, input }) => {
    const why = input.reason || 'manual invalidation';
    const scope = 'all' in input ? { all: true, reason: `${ctx.principal.user}: ${why}` } : { sourceName: input.sourceName, reason: `${ctx.principal.user}: ${why}` };
    const retired = await (await planCacheOf(ctx)).invalidate(scope);
    return { retired, ...('all' in input ? { all: true } : { sourceName: input.sourceName }) };
  }),
});
