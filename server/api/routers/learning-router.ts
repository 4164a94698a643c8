/**
 * The learning loop over tRPC: the bandit's arms with their statistics (viewers may read them)
 * and thumbs up/down on a run (operators: the people who run goals judge the answers). The vote
 * is stored before the call returns; the bandit's update from it happens off the response path.
 */
import { z } from 'zod';
import { type ApiContext, createTRPCRouter, operatorProcedure, viewerProcedure } from '../init';
import type { LearningPort } from '../runtime-port';

const learningOf = async (ctx: ApiContext): Promise<LearningPort> => (await ctx.runtime()).learning();

export const learningRouter = createTRPCRouter({
  arms: viewerProcedure.query(async ({ ctx }) => {
    const learning = await learningOf(ctx);
    return { policy: learning.policy, enabled: learning.settings.enabled, alpha: learning.settings.alpha, topKArms: learning.settings.topKArms, arms: await learning.arms() };
  }),

  feedback: operatorProcedure
    .input(z.object({ runId: z.string().trim().min(1).max(200), thumb: z.enum(['up', 'down']) }))
    .mutation(async ({ ctx, input }) => {
      const tally = await (await learningOf(ctx)).feedback(input.runId, ctx.principal, input.thumb);
      return { runId: input.runId, thumb: input.thumb, ...tally };
    }),
});
