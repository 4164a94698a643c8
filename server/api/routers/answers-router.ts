/**
 * Answers people may read: completed runs' answers with their citations, newest first. The runtime
 * applies source permissions (a run over a source the caller may not read is left out); reading
 * runs is a viewer's right, so this is what a viewer's console shows instead of the run form.
 */
import { z } from 'zod';
import { createTRPCRouter, viewerProcedure } from '../init';

export const answersRouter = createTRPCRouter({
  recent: viewerProcedure.input(z.object({ limit: z.number().int().min(1).max(100).default(20) }).default({ limit: 20 })).query(async ({ ctx, input }) => {
    return (await ctx.runtime()).recentAnswers({ principal: ctx.principal, limit: input.limit });
  }),
});
